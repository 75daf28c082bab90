#include "lookback/model/protocol_model.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace lookback::model {

namespace {

using namespace protocol;

// Location numbering of one instance: temp storage (the launch word, done
// counter, descriptors) shared by all launches; input/output tiles per launch.
// The launch word is the kernels' Header::draw: its value's `num` is the
// ticket and its `epoch` the launch epoch (Reset::Epoch).
struct Memory {
  Loc draw = 0, done = 0, pad = 0;
  std::vector<Loc> desc;                  // packed word, or split status word
  std::vector<Loc> agg;                   // split: aggregate value word
  std::vector<Loc> incl;                  // split: inclusive value word (== agg when overwritten)
  std::vector<std::vector<Loc>> in, out;  // [launch][tile]
};

// The launch word at the start of a launch in `epoch`: ticket 0.
Value launch_word(std::uint32_t epoch) {
  Value w = Value::integer(0);
  w.epoch = epoch;
  return w;
}

Interval expected_exclusive(int tile, int launch) {
  return tile == 0 ? Interval::empty() : Interval::range(0, tile - 1, launch);
}

class BlockProgram {
 public:
  BlockProgram(const Protocol& p, const Instance& inst, const Memory& m, int launch, int block,
               int tiles, int blocks)
      : p_(p), inst_(inst), m_(m), launch_(launch), block_(block), tiles_(tiles), blocks_(blocks) {}

  void operator()(Ctx& c) const {
    if (persistent(p_)) {
      run_persistent(c);
      return;
    }
    const auto [tile, drawn, epoch] = draw(c);
    c.require(tile >= 0 && tile < tiles_, Property::CorrectPrefix, [&] {
      return "tile id " + std::to_string(tile) + " out of range: the ticket was not reset";
    });
    const Interval aggregate = begin_tile(c, tile, epoch);
    const Interval inclusive = resolve_tile(c, tile, aggregate, epoch);
    // As in the kernels, a block hands the launch over (if its draw was the
    // last) or counts itself finished (epoch-wrapping launches) after its
    // last descriptor access and before it writes its output.
    finish_launch(c, tile, epoch, drawn);
    store_output(c, tile, inclusive, output_fence_before(p_, 0));
  }

 private:
  // Persistent blocks holding up to two tiles (Protocol::tiles_per_block):
  // the newer tile's aggregate is published before the older tile's
  // look-back, and the block takes tickets until one is past the last tile.
  // Under the CountTilesNotBlocks flaw every tile counts itself finished.
  void run_persistent(Ctx& c) const {
    const Drawn first = draw(c);
    const std::uint32_t epoch = first.epoch;
    int older = first.tile;
    if (older >= tiles_) {  // other blocks took every tile
      if (p_.flaw != Flaw::CountTilesNotBlocks) finish_launch(c, older, epoch, older);
      return;
    }
    Interval older_aggregate = begin_tile(c, older, epoch);
    for (long long held = 0; !c.suspended(); ++held) {  // older is the block's tile `held`
      const int newer = draw(c).tile;
      Interval newer_aggregate = Interval::empty();
      if (newer < tiles_) newer_aggregate = begin_tile(c, newer, epoch);
      const Interval inclusive = resolve_tile(c, older, older_aggregate, epoch);
      if (newer >= tiles_ || p_.flaw == Flaw::CountTilesNotBlocks)
        finish_launch(c, older, epoch, newer);
      store_output(c, older, inclusive, output_fence_before(p_, held));
      if (newer >= tiles_) return;
      older = newer;
      older_aggregate = newer_aggregate;
    }
  }

  // A draw from the launch word (launch_state.cuh): the tile id (the
  // ticket, or blockIdx), the ticket and the launch epoch.
  struct Drawn {
    int tile;
    int count;
    std::uint32_t epoch;
  };
  // A blockIdx variant draws only for the epoch hand-over: with one launch
  // (where the hand-over is left out, see finish_launch) its draw's value is
  // never used, and the model leaves the draw out.
  Drawn draw(Ctx& c) const {
    const bool epoch_reset = p_.reset == Reset::Epoch;
    if (p_.tile_id != TileIdSource::Ticket && (!epoch_reset || inst_.launches == 1))
      return {block_, 0, first_epoch(p_, inst_)};
    const Value w = c.fetch_add(m_.draw, 1, kTicketOrder, Step::TakeTicket, -1);
    return {p_.tile_id == TileIdSource::Ticket ? w.num : block_, w.num, epoch_reset ? w.epoch : 0u};
  }

  // Loads the tile's input (the local scan is one step: the aggregate is the
  // input interval) and publishes its first status; returns the aggregate.
  Interval begin_tile(Ctx& c, int tile, std::uint32_t epoch) const {
    // Only this tile's owner ever writes its input (in place), and it has
    // not yet: the load commutes with everything the other blocks do, and it
    // is weak (input_load_order) even where the fallback's reads are strong.
    const Interval aggregate =
        c.load_unshared(m_.in[launch_][tile], input_load_order(p_), Step::LoadInput, tile).iv;
    const Status first = first_publish_status(p_, tile);
    publish(c, tile, first, aggregate, epoch,
            first == Status::Prefix ? Step::PublishPrefix : Step::PublishAggregate);
    return aggregate;
  }

  // Looks back (where the tile still needs its PREFIX) and publishes the
  // PREFIX; returns the tile's inclusive prefix.
  Interval resolve_tile(Ctx& c, int tile, const Interval& aggregate, std::uint32_t epoch) const {
    // A tile that has published its PREFIX is done; tile 0 without a PREFIX
    // (a flaw) also skips the look-back, as it has no predecessor.
    const Status first = first_publish_status(p_, tile);
    if (tile == 0 || (first != Status::Aggregate && p_.flaw != Flaw::PrefixBeforeLookback))
      return aggregate;
    const Interval exclusive = lookback(c, tile, epoch);
    c.require(
        same_tiles(exclusive, expected_exclusive(tile, launch_)), Property::CorrectPrefix, [&] {
          return "tile " + std::to_string(tile) + " uses exclusive prefix " + to_string(exclusive) +
                 ", expected " + to_string(expected_exclusive(tile, launch_));
        });
    require_left_fold(c, exclusive, [&] {
      return "tile " + std::to_string(tile) + " uses exclusive prefix " + to_string(exclusive);
    });
    const Interval inclusive = combine(exclusive, aggregate);
    publish(c, tile, Status::Prefix, inclusive, epoch, Step::PublishPrefix);
    return inclusive;
  }

  // a (+) b as the variant's look-back combines them: a left fold tracks
  // its bracketing (Fold::LeftFold), a tree does not.
  Interval combine(const Interval& a, const Interval& b) const {
    return p_.fold == Fold::LeftFold ? fold(a, b) : join(a, b);
  }

  // Fold::LeftFold: a prefix a tile uses or publishes is bracketed as the
  // left fold of the aggregates (the deterministic mode's claim).
  template <class Message>
  void require_left_fold(Ctx& c, const Interval& iv, Message&& what) const {
    if (p_.fold != Fold::LeftFold) return;
    c.require(!iv.regrouped, Property::LeftFold, [&] {
      return what() + ", not the left fold of the aggregates (its bits depend on the schedule)";
    });
  }

  // `fenced`: output_fence_before (a persistent block fences before every
  // second output; that fence also covers the tile drawn after this one).
  void store_output(Ctx& c, int tile, const Interval& inclusive, bool fenced) const {
    if (fenced) c.fence(output_fence(p_), Step::OutputFence, tile);
    Value out;
    out.iv = inclusive;
    c.store(m_.out[launch_][tile], out, data_order(p_), Step::StoreOutput, tile);
  }

  // Names what a publish carries: (launch, tile, status). A fallback's
  // AGGREGATE of tile j carries the same as j's own, so a reader pairing
  // j's status with either value word is not torn.
  std::uint16_t pub_id(int tile, Status s) const {
    return static_cast<std::uint16_t>(((launch_ * 32 + tile) * 4) + 4 + static_cast<int>(s));
  }

  Status effective(const Value& v, std::uint32_t epoch) const {
    return effective_status(encode_tag(v.status, v.epoch), epoch, p_.reset);
  }

  bool packed() const { return inst_.layout == Layout::Packed; }

  Loc value_word(int tile, Status s) const {
    return s == Status::Prefix ? m_.incl[tile] : m_.agg[tile];
  }

  void publish(Ctx& c, int tile, Status s, const Interval& iv, std::uint32_t epoch,
               Step step) const {
    if (s == Status::Prefix) {
      const Interval want = Interval::range(0, tile, launch_);
      c.require(same_tiles(iv, want), Property::CorrectPrefix, [&] {
        return "tile " + std::to_string(tile) + " publishes PREFIX " + to_string(iv) +
               ", expected " + to_string(want);
      });
      require_left_fold(c, iv, [&] {
        return "tile " + std::to_string(tile) + " publishes PREFIX " + to_string(iv);
      });
    }
    Value word;
    word.status = s;
    word.epoch = epoch;
    word.pub = pub_id(tile, s);
    stage_value(c, tile, word, iv, step);
    c.fence(p_.publish_fence, Step::PublishFence, tile);
    c.store(m_.desc[tile], word, publish_order_on(p_, inst_.layout), step, tile);
  }

  // The value half of a publish, before its fence: packed, it rides in the
  // status word; split, it goes to the status's own value word first,
  // tagged with the publish id so a reader can tell a torn pair.
  void stage_value(Ctx& c, int tile, Value& word, const Interval& iv, Step step) const {
    if (packed()) {
      word.iv = iv;
      return;
    }
    Value v;
    v.iv = iv;
    v.pub = word.pub;
    c.store(value_word(tile, word.status), v, split_value_order(p_), step, tile);
  }

  struct Lane {
    int tile;
    bool padding;
    Status status;
    Interval iv;
    Value word;
    bool known = false;  // iv is the lane's own fallback reduction (its CAS won)
  };

  // One read of every lane of the window [j - window + 1, j], then the
  // look-back fence (the kernel's wait_window round). The lanes read
  // concurrently (Ctx::begin_lanes): none of their reads orders another's.
  // `again`: the left fold's second pass (WindowLookback::refold) reads
  // each lane once and does not wait: its lanes saw these descriptors
  // non-INVALID before, and a descriptor only moves up, so an INVALID one
  // is a violation (the kernel raises an error) rather than a wait (which
  // would be unbounded in the fallback variants).
  void read_window(Ctx& c, int tile, int j, std::uint32_t epoch, std::vector<Lane>& lanes,
                   bool again = false) const {
    const bool spins = !bounded_wait(p_) && !again;  // an await, or one plain read
    const Step step = again ? Step::RefoldStatus : Step::LookbackStatus;
    lanes.clear();
    c.begin_lanes();
    for (int k = 0; k < inst_.window; ++k) {
      const int idx = j - k;
      if (idx < 0) {
        lanes.push_back({idx, true, Status::Invalid, Interval::empty(), {}});
        continue;
      }
      const Value w = !spins ? c.load(m_.desc[idx], p_.lookback_order, step, idx)
                             : c.await(m_.desc[idx], p_.lookback_order, step, idx,
                                       [this, epoch](const Value& v) {
                                         return effective(v, epoch) != Status::Invalid;
                                       });
      lanes.push_back({idx, false, effective(w, epoch), w.iv, w});
      if (again)
        c.require(lanes.back().status != Status::Invalid, Property::MonotoneStatus, [&] {
          return "tile " + std::to_string(tile) + "'s second pass read desc[" +
                 std::to_string(idx) + "] INVALID, which its first pass saw published";
        });
    }
    c.end_lanes();
    c.fence(p_.lookback_fence, Step::LookbackFence, tile);
  }

  static int closest_invalid(const std::vector<Lane>& lanes) {
    for (int k = 0; k < static_cast<int>(lanes.size()); ++k)
      if (!lanes[k].padding && lanes[k].status == Status::Invalid) return k;
    return -1;
  }

  // Looks back from `tile` and returns the exclusive prefix it computed.
  // Each window as the kernel's WindowLookback: read it; while a lane is
  // INVALID, the fallback takes the closest such one, and if another is
  // still INVALID the whole window is read again (a spin bound of 1 falls
  // back on the next with the words it has); then the values of the lanes
  // from the closest PREFIX on (all of them without one) are read.
  // Fold::LeftFold reads no values in a window without a PREFIX, but for
  // the first p.held_windows such windows, whose values it keeps: it folds
  // from the closest PREFIX, then refolds the farther passed windows and
  // folds the held ones.
  Interval lookback(Ctx& c, int tile, std::uint32_t epoch) const {
    const int window = inst_.window;
    Interval acc = Interval::empty();
    std::vector<Lane> lanes;
    std::vector<int> passed;              // Fold::LeftFold: windows without a PREFIX, nearest first
    std::vector<std::vector<Lane>> held;  // the lanes of the first p_.held_windows of them
    for (int j = tile - 1; !c.suspended(); j -= window) {
      if (j < 0) {
        // The look-back passed tile 0 without meeting a PREFIX (only a
        // flawed variant: tile 0 publishes one first). The kernel re-reads
        // the window that holds tile 0 until its watchdog gives up; the
        // model waits on the padding word, which nothing writes: the same
        // hang, and the window's sum added before it changes nothing.
        c.await(m_.pad, p_.lookback_order, Step::Padding, j,
                [](const Value& v) { return v.status != Status::Invalid; });
      }
      read_window(c, tile, j, epoch, lanes);
      // Each fallback leaves its lane non-INVALID (a descriptor only moves
      // from INVALID to a status of the launch), so a window's active lanes
      // bound its rounds.
      const int active = std::min(window, j + 1);
      for (int r = 0; r < active && !c.suspended(); ++r) {
        const int k = closest_invalid(lanes);
        if (k < 0) break;
        fallback(c, lanes[static_cast<std::size_t>(k)], epoch);
        if (r + 1 < active && p_.spin_bound > 1 && closest_invalid(lanes) >= 0)
          read_window(c, tile, j, epoch, lanes);
      }
      if (c.suspended()) break;

      const int stop = stop_lane(lanes);
      if (has_second_pass(p_) && stop < 0) {
        passed.push_back(j);  // folded in the second pass
        if (static_cast<int>(held.size()) < held_windows(p_)) {
          // Every lane read AGGREGATE (a window that reaches tile 0 holds a
          // PREFIX): values that never change, read now and kept.
          read_values(c, tile, lanes, last_lane(lanes));
          held.push_back(lanes);
        }
        continue;
      }
      const int lowest = stop >= 0 ? stop : last_lane(lanes);
      read_values(c, tile, lanes, lowest);
      if (has_second_pass(p_)) {
        // Here the window has a PREFIX: the fold starts at it, then the
        // windows passed are refolded.
        acc = combine_lanes(lanes, lowest);
        for (std::size_t d = passed.size(); d-- > 0 && !c.suspended();)
          acc = d < held.size() ? combine_lanes(held[d], last_lane(held[d]), acc)
                                : refold(c, tile, passed[d], epoch, acc);
        return acc;
      }
      // value(lowest tile) (+) ... (+) value(j), in front of what the nearer
      // windows combined: operand order matters.
      acc = combine(combine_lanes(lanes, lowest), acc);
      if (stop >= 0) return acc;
    }
    return acc;  // suspended: the explorer discards what follows
  }

  // The lane of the closest PREFIX (or, under its flaw, AGGREGATE), or -1.
  int stop_lane(const std::vector<Lane>& lanes) const {
    for (int k = 0; k < static_cast<int>(lanes.size()) && !lanes[k].padding; ++k)
      if (lanes[k].status == Status::Prefix ||
          (p_.flaw == Flaw::StopAtAggregate && lanes[k].status == Status::Aggregate))
        return k;
    return -1;
  }
  static int last_lane(const std::vector<Lane>& lanes) {
    int last = -1;
    while (last + 1 < static_cast<int>(lanes.size()) && !lanes[last + 1].padding)
      ++last;
    return last;
  }

  // Split layout: each lane from 0 to `lowest` reads its own value word,
  // concurrently too (though after every lane's status read: one thread per
  // lane would order lane k's value only after lane k's status).
  void read_values(Ctx& c, int tile, std::vector<Lane>& lanes, int lowest,
                   Step step = Step::LookbackValue) const {
    if (packed()) return;
    c.begin_lanes();
    for (int k = 0; k <= lowest; ++k) {
      Lane& lane = lanes[static_cast<std::size_t>(k)];
      if (!lane.known && lane.status != Status::Invalid)
        lane.iv = read_value(c, tile, lane.status, lane.word, lane.tile, step);
    }
    c.end_lanes();
  }

  // `a` (+) value(lowest tile) (+) ... (+) value(nearest tile) of a window's
  // lanes, one at a time, as the variant combines (WindowLookback::fold,
  // refold; a tree's bracketing is not tracked).
  Interval combine_lanes(const std::vector<Lane>& lanes, int lowest,
                         Interval a = Interval::empty()) const {
    for (int k = lowest; k >= 0; --k)
      a = combine(a, lanes[static_cast<std::size_t>(k)].iv);
    return a;
  }

  // The left fold's second pass over window j, which the first passed
  // without a PREFIX (WindowLookback::refold): read it again, then fold
  // its values onto `acc`, or restart from its closest PREFIX if it has one
  // by now.
  Interval refold(Ctx& c, int tile, int j, std::uint32_t epoch, const Interval& acc) const {
    std::vector<Lane> lanes;
    read_window(c, tile, j, epoch, lanes, /*again=*/true);
    const int stop = stop_lane(lanes);
    const int lowest = stop >= 0 ? stop : last_lane(lanes);
    read_values(c, tile, lanes, lowest, Step::RefoldValue);
    return combine_lanes(lanes, lowest, stop >= 0 ? Interval::empty() : acc);
  }

  // Decoupled fallback for a predecessor still INVALID after the spin bound:
  // reduce its input tile here and publish the aggregate monotonically. Step
  // for step the kernel's WindowLookback::fallback: the validation's re-read
  // and the look-back fence after it, the CAS against what was read last,
  // and the look-back fence after the CAS (its read is a look-back read).
  void fallback(Ctx& c, Lane& lane, std::uint32_t epoch) const {
    const int idx = lane.tile;
    const Interval reduced =
        c.load(m_.in[launch_][idx], data_order(p_), Step::FallbackLoadInput, idx).iv;
    if (fallback_validates(p_)) {
      c.fence(validation_fence(p_), Step::FallbackValidate, idx);
      const Value again = c.load(m_.desc[idx], p_.lookback_order, Step::FallbackValidate, idx);
      c.fence(p_.lookback_fence, Step::LookbackFence, idx);
      if (effective(again, epoch) != Status::Invalid) {
        adopt(lane, again, epoch);  // the reduction is discarded
        c.fence(p_.lookback_fence, Step::LookbackFence, idx);
        return;
      }
      lane.word = again;  // the CAS expects what the validation read
    }
    Value desired;
    desired.status = fallback_status(idx);
    desired.epoch = epoch;
    desired.pub = pub_id(idx, desired.status);
    stage_value(c, idx, desired, reduced, Step::FallbackPublish);
    c.fence(p_.publish_fence, Step::PublishFence, idx);
    const auto won = [&] {
      lane.word = desired;
      lane.status = desired.status;
      lane.iv = reduced;
      lane.known = true;
    };
    if (!fallback_uses_cas(p_)) {
      c.store(m_.desc[idx], desired, publish_order_on(p_, inst_.layout), Step::FallbackPublish,
              idx);
      won();
      c.fence(p_.lookback_fence, Step::LookbackFence, idx);
      return;
    }
    const auto [ok, seen] =
        c.cas(m_.desc[idx], lane.word, desired, fallback_cas_order(p_), Step::FallbackPublish, idx);
    if (ok) {
      won();
    } else {
      adopt(lane, seen, epoch);
    }
    c.fence(p_.lookback_fence, Step::LookbackFence, idx);  // the CAS's read is a look-back read
  }

  // Takes the descriptor word the fallback found instead of publishing its
  // own reduction; its value is read with the window's (split layout).
  void adopt(Lane& lane, const Value& word, std::uint32_t epoch) const {
    lane.word = word;
    lane.status = effective(word, epoch);
    lane.iv = word.iv;
  }

  // Split layout: the value word matching a status read from `word`, checked
  // against it (a torn pair is a violation).
  Interval read_value(Ctx& c, int reader, Status s, const Value& word, int idx, Step step) const {
    const Value v = c.load(value_word(idx, s), split_value_order(p_), step, idx);
    c.require(v.pub == word.pub, Property::NoTornDescriptor, [&] {
      return "tile " + std::to_string(reader) + " read " + to_string(s) + " of tile " +
             std::to_string(idx) + " with a value " +
             (v.pub == 0 ? std::string("never written") : "of another publish") + " (" +
             to_string(v.iv) + ")";
    });
    return v.iv;
  }

  // Epoch reset, after the block's last descriptor access (`drawn`: the
  // ticket of its last draw). In a launch whose epoch does not wrap, the
  // block whose draw was the launch's last stores the next launch word. In
  // one that wraps, every block counts itself finished, and the last one
  // resets the counter, clears every descriptor and stores the next launch
  // word. The hand-over only matters to a later launch; with one launch it
  // is left out (in a correct variant no draw of the launch follows it), and
  // the reuse check (--launches 2) explores it.
  void finish_launch(Ctx& c, int tile, std::uint32_t epoch, int drawn) const {
    if (p_.reset != Reset::Epoch || inst_.launches == 1) return;
    if (!wraps(p_, epoch)) {
      if (drawn == last_draw(p_, tiles_, blocks_))
        c.store(m_.draw, launch_word(handed_over_epoch(p_, epoch)), kResetOrder, Step::HandOver,
                tile);
      return;
    }
    const int finished = c.fetch_add(m_.done, 1, kDoneOrder, Step::FinishCounter, tile).num;
    if (finished != last_finisher(p_, tiles_, blocks_)) return;
    c.store(m_.done, Value::integer(0), kResetOrder, Step::ResetCounter, tile);
    if (p_.flaw != Flaw::EpochWrapNotCleared) {
      for (std::size_t k = 0; k < m_.desc.size(); ++k)
        c.store(m_.desc[k], Value{}, kResetOrder, Step::ClearDescriptor, static_cast<int>(k));
    }
    c.store(m_.draw, launch_word(0u), kResetOrder, Step::HandOver, tile);
  }

  const Protocol p_;
  const Instance inst_;
  const Memory& m_;
  int launch_, block_, tiles_, blocks_;
};

}  // namespace

// Two launches cross the wrap: the first starts one launch (wrap_launch 0)
// or two before it; descriptors hold stale epoch-0 PREFIX words left by a
// launch long ago.
std::uint32_t first_epoch(const Protocol& p, const Instance& inst) {
  if (p.reset != Reset::Epoch || inst.launches == 1) return 0u;
  const std::uint32_t mask = p.epoch_bits >= 32 ? 0xffffffffu : ((1u << p.epoch_bits) - 1u);
  return (mask & kEpochMask) - static_cast<std::uint32_t>(inst.wrap_launch);
}

bool has_wrap_launch(const Protocol& p, int launches) {
  return launches == 2 && p.reset == Reset::Epoch;
}

std::vector<int> wrap_launches(const Protocol& p, int launches) {
  if (has_wrap_launch(p, launches) && p.epoch_bits >= 2) return {0, 1};
  return {0};
}

std::vector<int> launch_tiles(const Instance& inst) {
  std::vector<int> tiles(static_cast<std::size_t>(std::max(inst.launches, 0)), inst.tiles);
  if (inst.launches == 2) tiles[0] = std::max(1, inst.tiles / 2);
  return tiles;
}

int blocks_for(const Protocol& p, const Instance& inst) {
  if (!persistent(p)) return inst.tiles;
  if (inst.blocks > 0) return inst.blocks;
  return std::min(inst.tiles, std::max(2, inst.tiles / 2));
}

System build_protocol_system(const Protocol& p, const Instance& inst) {
  if (inst.tiles < 1 || inst.tiles > kMaxTiles)
    throw std::invalid_argument("tiles must be in 1.." + std::to_string(kMaxTiles));
  if (inst.window < 1 || inst.window > 32) throw std::invalid_argument("--window must be in 1..32");
  if (inst.launches < 1 || inst.launches > 2)
    throw std::invalid_argument("--launches must be 1 or 2");
  if (inst.layout == Layout::BySize)
    throw std::invalid_argument("the model checks one concrete layout: packed or split");
  if (p.flaw == Flaw::SplitValueOverwritten && inst.layout != Layout::Split)
    throw std::invalid_argument("split-value-overwritten needs the split layout");
  if (p.tiles_per_block < 1 || p.tiles_per_block > 2)
    throw std::invalid_argument("a block holds one or two tiles (tiles_per_block)");
  if (persistent(p) && p.tile_id != TileIdSource::Ticket)
    throw std::invalid_argument("persistent blocks take their tiles by ticket, not blockIdx");
  if (p.held_windows < 0) throw std::invalid_argument("held_windows must be 0 or more");
  if (inst.blocks < 0 || inst.blocks > inst.tiles)
    throw std::invalid_argument("--blocks must be in 1..tiles");
  if (inst.wrap_launch < 0 || inst.wrap_launch > 1 ||
      (inst.wrap_launch == 1 && !has_wrap_launch(p, inst.launches)))
    throw std::invalid_argument("--wrap-launch 1 needs two launches under the epoch reset");
  if (!epoch_fits_tag(p))
    throw std::invalid_argument("an epoch reset's epoch_bits must be in 1.." +
                                std::to_string(kEpochBits) + " (the tag's epoch field)");
  if (inst.wrap_launch == 1 && p.epoch_bits < 2)
    throw std::invalid_argument("--wrap-launch 1 needs an epoch of at least 2 bits");
  if (inst.blocks > 0 && !persistent(p) && inst.blocks != inst.tiles)
    throw std::invalid_argument("--blocks: this variant runs one block per tile");

  const std::vector<int> tiles_of = launch_tiles(inst);
  const int capacity = inst.tiles;

  System sys;
  Memory m;
  auto add = [&](std::string name, Value init, bool descriptor, bool local = false,
                 bool interchangeable = false, bool eager = false) {
    sys.loc_names.push_back(std::move(name));
    sys.init.push_back(init);
    sys.descriptor.push_back(descriptor);
    sys.local.push_back(local);
    sys.interchangeable.push_back(interchangeable);
    sys.eager_writes.push_back(eager);
    return static_cast<Loc>(sys.init.size() - 1);
  };
  const bool epoch_reset = p.reset == Reset::Epoch;
  m.draw = add("ticket", launch_word(first_epoch(p, inst)), false);
  m.done = add("done", Value::integer(0), false);
  m.pad = add("pad", Value{}, false);
  const bool packed = inst.layout == Layout::Packed;
  for (int k = 0; k < capacity; ++k) {
    Value init;
    if (epoch_reset && inst.launches > 1) {
      init.status = Status::Prefix;
      init.epoch = 0;
      init.iv = Interval::range(0, k, -1);
      init.pub = 1;
    }
    m.desc.push_back(add((packed ? "desc[" : "status[") + std::to_string(k) + "]", init, true));
  }
  if (!packed) {
    Value garbage;
    garbage.iv = Interval::bad();
    // A value word is stored by its owner and by fallbacks, all with the
    // same value (one publish id per launch, tile and status), and only ever
    // loaded (read_value): interchangeable writes, where they are relaxed
    // and no release fence comes before any of them (none on the publish
    // and look-back paths, no validation). The explorer checks this.
    const bool interchangeable = split_value_order(p) == Order::Relaxed &&
                                 split_value_words(p) == 2 && p.publish_fence == Fence::None &&
                                 p.lookback_fence == Fence::None &&
                                 validation_fence(p) == Fence::None;
    // Where value words are accessed strongly (the fallback variants), no
    // access to them races and a store to one is always followed by a status
    // store or CAS: their stores may go eagerly (explorer:
    // models/src/eager_writes.hpp; checked there too).
    const bool eager = split_value_order(p) != Order::Weak;
    for (int k = 0; k < capacity; ++k) {
      m.agg.push_back(
          add("agg[" + std::to_string(k) + "]", garbage, false, false, interchangeable, eager));
      m.incl.push_back(split_value_words(p) == 1 ? m.agg.back()
                                                 : add("incl[" + std::to_string(k) + "]", garbage,
                                                       false, false, interchangeable, eager));
    }
  }
  for (int l = 0; l < inst.launches; ++l) {
    const std::string launch = inst.launches > 1 ? "L" + std::to_string(l) + "." : "";
    m.in.emplace_back();
    m.out.emplace_back();
    for (int k = 0; k < tiles_of[l]; ++k) {
      Value in;
      in.iv = Interval::tile(k, l);
      // Without in-place output nobody writes an input tile, and only its
      // owner writes (and nobody reads) an output tile: both are local.
      m.in[l].push_back(add(launch + "in[" + std::to_string(k) + "]", in, false, !p.in_place));
      Value garbage;
      garbage.iv = Interval::bad();
      m.out[l].push_back(
          p.in_place ? m.in[l].back()
                     : add(launch + "out[" + std::to_string(k) + "]", garbage, false, true));
    }
  }

  auto shared = std::make_shared<Memory>(std::move(m));
  for (int l = 0; l < inst.launches; ++l) {
    if (l > 0 && p.reset != Reset::Epoch) {
      // The host between launches: re-arms the ticket, and for HostMemset
      // also clears the descriptors.
      const int thread = static_cast<int>(sys.threads.size());
      sys.threads.push_back({"host", 0, 2 * l - 1});
      sys.symmetry_class.push_back(-1 - thread);
      sys.programs.push_back([p, shared, thread](Ctx& c) {
        if (p.reset == Reset::HostMemset)
          for (std::size_t k = 0; k < shared->desc.size(); ++k)
            c.store(shared->desc[k], Value{}, kResetOrder, Step::HostReset, static_cast<int>(k));
        c.store(shared->draw, launch_word(0u), kResetOrder, Step::HostReset, -1);
        (void)thread;
      });
    }
    const int blocks = persistent(p) ? std::min(tiles_of[l], blocks_for(p, inst)) : tiles_of[l];
    for (int b = 0; b < blocks; ++b) {
      const int thread = static_cast<int>(sys.threads.size());
      // Appended (names.cpp says why).
      std::string name;
      if (inst.launches > 1) name.append("L").append(std::to_string(l)).append(".");
      name += "block " + std::to_string(b);
      sys.threads.push_back({name, thread, 2 * l});
      // With ticket tile ids a block's program does not depend on its index:
      // the blocks of one launch are interchangeable.
      sys.symmetry_class.push_back(p.tile_id == TileIdSource::Ticket ? l : -1 - thread);
      BlockProgram prog(p, inst, *shared, l, b, tiles_of[l], blocks);
      sys.programs.push_back([prog, shared](Ctx& c) { prog(c); });
    }
  }
  sys.resident = inst.resident;
  return sys;
}

}  // namespace lookback::model
