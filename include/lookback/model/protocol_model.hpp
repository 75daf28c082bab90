// The model's interpreter of the protocol spec: turns a `Protocol` (the same
// constexpr value the kernels are generated from) into one program per block
// per launch over symbolic memory.
//
// A block's program: take a tile id (ticket RMW or blockIdx); load its input
// tile (the local scan is one step: the aggregate is the input interval);
// publish AGGREGATE (tile 0: PREFIX); look back over windows of predecessors
// (a window is a set of independent loads, each an await for a non-INVALID
// status, or under the fallback a bounded wait that may see INVALID and then
// reduce that predecessor's input itself); publish PREFIX; write the output.
// With an epoch reset the block first reads the launch epoch and the last
// block to finish bumps it. Every protocol check the block can make itself
// (correct prefix, torn descriptor) is a `require` in the program.
// A persistent variant (Protocol::tiles_per_block == 2) runs fewer blocks
// than tiles; each loops: take the next ticket, load that tile and publish
// its aggregate, then look back for the tile it already held, publish its
// PREFIX and write its output; until a ticket is past the last tile.
#pragma once

#include <string>
#include <vector>

#include "lookback/model/program.hpp"
#include "lookback/protocol/spec.hpp"

namespace lookback::model {

// Most tiles per launch. The explorer's instances stay far below (the
// command takes 1..16, and an execution past kMaxEvents events is refused);
// 64 is for the sampler (sampler.hpp). With two launches the first has half
// as many tiles, so publish ids (launch * 32 + tile) stay distinct.
inline constexpr int kMaxTiles = 64;

struct Instance {
  int tiles = 4;                                       // tiles (= blocks) of the last launch
  int window = 2;                                      // predecessors per look-back step
  int launches = 1;                                    // launches sharing the temp storage
  protocol::Layout layout = protocol::Layout::Packed;  // Packed or Split
  int resident = 0;  // occupancy bound (0: all blocks may be resident)
  // Blocks per launch of a persistent variant (protocol::persistent); 0:
  // half the tiles (at least 2, at most all), so every block may hold two.
  // Other variants run one block per tile.
  int blocks = 0;
  // Two launches under the epoch reset: the one whose epoch wraps (0 or 1).
  // 0: launch 0 wraps (it counts its blocks and clears the descriptors) and
  // launch 1 hands its word over to no one; 1: launch 0 hands its word over
  // to launch 1, which wraps. Needs an epoch of at least 2 bits (the stale
  // descriptors are of epoch 0, which the launches must not have).
  int wrap_launch = 0;
};

// The launch epoch the first launch of `inst` runs in.
std::uint32_t first_epoch(const protocol::Protocol& p, const Instance& inst);

// Whether `launches` launches of `p` have a launch whose epoch wraps
// (Instance::wrap_launch names it): two launches under the epoch reset.
bool has_wrap_launch(const protocol::Protocol& p, int launches);

// The values of Instance::wrap_launch worth checking for `launches`
// launches of `p`: both under the epoch reset with an epoch of at least 2
// bits (each hand-over, the last drawer's and a wrapping launch's last
// finisher's, is then read by a later launch), else 0 alone.
std::vector<int> wrap_launches(const protocol::Protocol& p, int launches);

// Tiles of each launch, in launch order: the last has inst.tiles; the first
// of two has half as many, so descriptors it never touched keep older
// contents for the second to meet.
std::vector<int> launch_tiles(const Instance& inst);

// Blocks of the last launch (an earlier, smaller one has at most as many).
int blocks_for(const protocol::Protocol& p, const Instance& inst);

// Throws std::invalid_argument with a one-line reason for instances the
// protocol cannot describe (e.g. more tiles than kMaxTiles, or a window past 32).
System build_protocol_system(const protocol::Protocol& p, const Instance& inst);

}  // namespace lookback::model
