// The execution graph: the one type at the centre of the checker. Events in
// the order they were added (which respects program order and reads-from),
// program order per thread, reads-from on each read, a total coherence order
// per location, and the order of fence.sc events.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lookback/model/event.hpp"

namespace lookback::model {

struct ThreadInfo {
  std::string name;  // "block 2", "P0"
  int cta = 0;       // CTA of the thread (scope .cta)
  int phase = 0;     // launches are phases: phase p starts after all of p-1 end
};

class ExecutionGraph {
 public:
  ExecutionGraph() = default;
  ExecutionGraph(std::vector<ThreadInfo> threads, int locations, std::vector<Value> init);

  int size() const { return static_cast<int>(events_.size()); }
  const Event& event(int id) const { return events_[id]; }
  Event& event(int id) { return events_[id]; }
  const std::vector<Event>& events() const { return events_; }
  int threads() const { return static_cast<int>(threads_->size()); }
  const ThreadInfo& thread(int t) const { return (*threads_)[t]; }
  std::span<const int> thread_events(int t) const { return segment(by_thread_, t); }
  int locations() const { return static_cast<int>(co_.end.size()); }
  std::span<const int> co(Loc l) const { return segment(co_, l); }
  const std::vector<int>& sc_order() const { return sc_; }
  const Value& initial(Loc l) const { return (*init_)[l]; }

  // Value a read observes from `rf` (an event id or kInit).
  const Value& value_of(int rf, Loc l) const {
    return rf == kInit ? (*init_)[l] : events_[rf].wval;
  }

  // Adds an event of thread e.thread (index and id assigned). For writes,
  // `co_pos` is its position in the coherence order of its location (0 =
  // first). Returns the new id. Throws std::invalid_argument past
  // max_events().
  int add(Event e, int co_pos = -1);
  // Undoes the last add().
  void remove_last();

  // Most events the graph may hold: kMaxEvents (relation.hpp), what the
  // consistency checkers' bit rows hold, unless raised for the sampler.
  int max_events() const;
  void set_max_events(int n) { max_events_ = n; }

  // Position of write `id` in its location's coherence order.
  int co_position(int id) const;

  // Order-independent 128-bit fingerprint of the graph (events named by
  // thread and index, not by id), to visit each graph once. `rank[t]` renames
  // thread t (for symmetry reduction); empty means no renaming. Locations
  // marked in `by_value` are named by value only: a read of one by the value
  // it read (and whether it was the initial one), not its source; their
  // coherence orders are left out (interchangeable writes, explorer.hpp).
  std::pair<std::uint64_t, std::uint64_t> fingerprint(const std::vector<int>& rank = {},
                                                      const std::vector<bool>& by_value = {}) const;

 private:
  // Lists of event ids, one per thread or location, laid end to end in one
  // vector: the explorer copies a graph per branch, and one allocation per
  // list made those copies cost more than the rest of a step.
  struct Segments {
    std::vector<int> ids;
    std::vector<int> end;  // end[k]: one past list k's last id in `ids`
    int begin(int k) const { return k == 0 ? 0 : end[k - 1]; }
    void insert(int k, int pos, int id);  // at position `pos` of list k
    void erase(int k, int pos);
  };
  static std::span<const int> segment(const Segments& s, int k) {
    const int b = s.begin(k);
    return {s.ids.data() + b, static_cast<std::size_t>(s.end[k] - b)};
  }

  // Shared and immutable: copying a graph (the explorer does, per branch)
  // copies only what grows.
  std::shared_ptr<const std::vector<ThreadInfo>> threads_;
  std::vector<Event> events_;
  Segments by_thread_;
  Segments co_;
  std::vector<int> sc_;
  std::shared_ptr<const std::vector<Value>> init_;
  int max_events_ = 0;  // 0: kMaxEvents
};

}  // namespace lookback::model
