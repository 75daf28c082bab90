// Internals of the Promela exporter shared by its parts: the shape of the
// exported instance (threads, phases, locations, epochs) and a line writer.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lookback/model/promela_export.hpp"

namespace lookback::model::promela {

// One thread of the instance, numbered exactly as the explorer numbers its
// threads (per launch: the host re-arming the launch, then the blocks), so
// that the progress models that rank threads (HSA, LOBE) rank them alike.
struct Thread {
  int index = 0;
  int launch = 0;
  int block = 0;  // blockIdx; -1 for the host
  int phase = 0;  // launch l is phase 2l; the host before it is phase 2l-1
  bool host() const { return block < 0; }
};

struct Geometry {
  int capacity = 0;           // descriptors (tiles of the largest launch)
  std::vector<int> tiles_of;  // tiles of each launch (launch_tiles)
  std::vector<Thread> threads;
  std::vector<int> phases;            // distinct phases, in order
  std::vector<std::uint32_t> epochs;  // launch epochs the epoch word can hold
  bool split = false;
  bool two_value_words = true;
  // Promela location numbers for the graph-history ghost code. The launch
  // word (the variables `ticket` and `epoch`) is one location, as in the
  // kernels' Header::draw.
  static constexpr int kWords = 3;
  int loc_ticket = 0, loc_done = 1, loc_fence_sc = 2;
  int loc_desc(int k) const { return kWords + k; }
  int loc_agg(int k) const { return kWords + capacity + k; }
  int loc_incl(int k) const { return two_value_words ? kWords + 2 * capacity + k : loc_agg(k); }
  int loc_io(int launch, int k) const { return kWords + 3 * capacity + launch * capacity + k; }
  int locations() const {
    return kWords + 3 * capacity + static_cast<int>(tiles_of.size()) * capacity;
  }
  int threads_in(int phase) const;
};

Geometry geometry(const PromelaSpec& spec);

// Indented line output.
class Writer {
 public:
  explicit Writer(std::ostream& os) : os_(os) {}
  void line(const std::string& s);
  void blank() { os_ << "\n"; }
  void in() { indent_ += 2; }
  void out() { indent_ -= 2; }

 private:
  std::ostream& os_;
  int indent_ = 0;
};

// Promela spellings shared by the parts.
std::string status_name(protocol::Status s);
std::string iv_literal(int launch, int lo, int hi);  // "IV(l, lo, hi)"
int pub_id(const Geometry& g, int launch, int tile, protocol::Status s);
std::string property_flag(protocol::Property p);  // ghost bit set when p is violated

// The parts of the model, in the order they are written.
// Returns the most shared events one thread can record (sizes the history).
int write_blocks(Writer& w, const PromelaSpec& spec, const Geometry& g);
void write_progress(Writer& w, const PromelaSpec& spec, const Geometry& g);

}  // namespace lookback::model::promela
