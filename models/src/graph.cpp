#include "lookback/model/graph.hpp"
#include "lookback/model/relation.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace lookback::model {

void ExecutionGraph::Segments::insert(int k, int pos, int id) {
  ids.insert(ids.begin() + begin(k) + pos, id);
  for (std::size_t j = static_cast<std::size_t>(k); j < end.size(); ++j)
    ++end[j];
}

void ExecutionGraph::Segments::erase(int k, int pos) {
  ids.erase(ids.begin() + begin(k) + pos);
  for (std::size_t j = static_cast<std::size_t>(k); j < end.size(); ++j)
    --end[j];
}

ExecutionGraph::ExecutionGraph(std::vector<ThreadInfo> threads, int locations,
                               std::vector<Value> init) {
  by_thread_.end.assign(threads.size(), 0);
  co_.end.assign(static_cast<std::size_t>(locations), 0);
  threads_ = std::make_shared<const std::vector<ThreadInfo>>(std::move(threads));
  init.resize(static_cast<std::size_t>(locations));
  init_ = std::make_shared<const std::vector<Value>>(std::move(init));
}

int ExecutionGraph::max_events() const {
  return max_events_ > 0 ? max_events_ : kMaxEvents;
}

int ExecutionGraph::add(Event e, int co_pos) {
  if (size() >= max_events())
    throw std::invalid_argument("instance too large: an execution exceeds " +
                                std::to_string(max_events()) + " events (use fewer tiles)");
  const int id = size();
  const int mine = static_cast<int>(thread_events(e.thread).size());
  e.index = static_cast<std::uint16_t>(mine);
  by_thread_.insert(e.thread, mine, id);
  if (e.is_write()) {
    const int len = static_cast<int>(co(e.loc).size());
    if (co_pos < 0 || co_pos > len) co_pos = len;
    co_.insert(e.loc, co_pos, id);
  }
  if (e.is_fence() && e.fence == Fence::Sc) sc_.push_back(id);
  events_.push_back(e);
  return id;
}

void ExecutionGraph::remove_last() {
  const Event& e = events_.back();
  const int id = size() - 1;
  by_thread_.erase(e.thread, static_cast<int>(thread_events(e.thread).size()) - 1);
  if (e.is_write()) co_.erase(e.loc, co_position(id));
  if (e.is_fence() && e.fence == Fence::Sc) sc_.pop_back();
  events_.pop_back();
}

int ExecutionGraph::co_position(int id) const {
  const auto order = co(events_[id].loc);
  return static_cast<int>(std::find(order.begin(), order.end(), id) - order.begin());
}

namespace {
struct Hasher {
  std::uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xc2b2ae3d27d4eb4full;
  void mix(std::uint64_t x) {
    a ^= x + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2);
    a *= 0xff51afd7ed558ccdull;
    a ^= a >> 33;
    b += x * 0x94d049bb133111ebull;
    b ^= b >> 29;
    b *= 0xbf58476d1ce4e5b9ull;
  }
};
std::uint64_t value_word(const Value& v) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v.num)) ^
         (static_cast<std::uint64_t>(v.status) << 32) ^
         (static_cast<std::uint64_t>(v.epoch) << 35) ^
         (static_cast<std::uint64_t>(static_cast<std::uint16_t>(v.iv.lo)) << 40) ^
         (static_cast<std::uint64_t>(static_cast<std::uint16_t>(v.iv.hi)) << 48) ^
         (static_cast<std::uint64_t>(v.iv.kind) << 60) ^
         (static_cast<std::uint64_t>(v.iv.regrouped) << 63) ^
         (static_cast<std::uint64_t>(static_cast<std::uint8_t>(v.iv.launch)) << 20) ^
         (static_cast<std::uint64_t>(v.pub) << 24);
}
}  // namespace

std::pair<std::uint64_t, std::uint64_t> ExecutionGraph::fingerprint(
    const std::vector<int>& rank, const std::vector<bool>& by_value) const {
  // The explorer fingerprints every candidate step, so this loop is hot:
  // names and the by-value test come from small tables, and an event is
  // mostly one word (what it did and, for a read, its source's name).
  const int nthreads = threads();
  std::array<std::uint64_t, 256> renamed;  // Event::thread is 8 bits wide
  std::array<int, 256> by_rank;
  for (int t = 0; t < nthreads; ++t) {
    const int r = rank.empty() ? t : rank[t];
    renamed[t] = static_cast<std::uint64_t>(r) << 16;
    by_rank[r] = t;
  }
  // An event's name: its thread (renamed) and index, 24 bits.
  auto name_of = [&](int id) -> std::uint64_t {
    if (id == kInit) return 0xffffull;
    const Event& e = events_[id];
    return renamed[e.thread] | e.index;
  };
  auto valued = [&](Loc l) { return !by_value.empty() && by_value[l]; };
  Hasher h;
  for (int pos = 0; pos < nthreads; ++pos) {
    const int t = by_rank[pos];
    h.mix(0x7777000000ull + static_cast<std::uint64_t>(pos));
    for (int id : thread_events(t)) {
      const Event& e = events_[id];
      std::uint64_t what =
          static_cast<std::uint64_t>(e.kind) | (static_cast<std::uint64_t>(e.loc) << 8) |
          (static_cast<std::uint64_t>(e.order) << 24) | (static_cast<std::uint64_t>(e.fence) << 28);
      const bool read = e.is_read();
      const bool by_val = read && valued(e.loc);
      if (read && !by_val) what |= name_of(e.rf) << 32;
      h.mix(what);
      if (e.is_write()) h.mix(value_word(e.wval));
      if (by_val) h.mix(value_word(e.rval) ^ (e.rf == kInit ? 0x8000000000000000ull : 0));
    }
  }
  for (int l = 0; l < locations(); ++l) {
    h.mix(0x5555ull);
    if (valued(static_cast<Loc>(l))) continue;
    for (int id : co(static_cast<Loc>(l)))
      h.mix(name_of(id));
  }
  h.mix(0x3333ull);
  for (int id : sc_)
    h.mix(name_of(id));
  return {h.a, h.b};
}

}  // namespace lookback::model
