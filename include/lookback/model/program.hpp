// Thread programs and the replay context they run against.
//
// A program is ordinary C++ that performs memory operations through `Ctx`.
// The explorer re-runs it from the start against the thread's events so far
// (each read returns what its event read); at the first operation past them
// the context records it as the thread's next operation and unwinds. This is
// the re-execution scheme of stateless model checkers (CDSChecker, GenMC):
// no program state is ever copied, only the execution graph.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lookback/model/graph.hpp"
#include "lookback/protocol/spec.hpp"

namespace lookback::model {

using protocol::Property;

// The next memory operation of a thread.
struct Op {
  enum class Rmw : std::uint8_t { None, FetchAdd, Cas };
  EventKind kind = EventKind::Read;
  Order order = Order::Weak;
  Fence fence = Fence::None;
  Scope scope = Scope::Gpu;
  Loc loc = 0;
  Step step = Step::Litmus;
  std::int16_t tile = -1;
  Value wval{};  // stores: the value; CAS: the desired value
  Rmw rmw = Rmw::None;
  std::int32_t add = 0;                     // FetchAdd operand
  Value expected{};                         // CAS: compared with the value read
  std::function<bool(const Value&)> exits;  // await: values that end the wait
  // The program asserts this read commutes with every other thread's steps:
  // no other thread writes the location.
  bool commutes = false;
  std::uint16_t group = 0;  // Event::group: a lane of a window read
};

// Thrown by a program that detects a violated property.
struct PropertyViolation {
  Property property;
  std::string message;
};

class Ctx {
 public:
  // `events` are the thread's events so far, in program order.
  Ctx(const ExecutionGraph& g, int thread) : g_(g), thread_(thread) {}

  Value load(Loc l, Order o, Step s, int tile);
  // A load of a location no other thread writes (e.g. a block's own input
  // tile): the explorer may schedule it eagerly.
  Value load_unshared(Loc l, Order o, Step s, int tile);
  // Spin until a value satisfying `exits` is read; returns that value.
  Value await(Loc l, Order o, Step s, int tile, std::function<bool(const Value&)> exits);
  void store(Loc l, const Value& v, Order o, Step s, int tile);
  Value fetch_add(Loc l, std::int32_t add, Order o, Step s, int tile);
  // Compare-and-swap on the whole value; returns {succeeded, value read}.
  std::pair<bool, Value> cas(Loc l, const Value& expected, const Value& desired, Order o, Step s,
                             int tile);
  void fence(Fence f, Step s, int tile);
  // Between these, loads and awaits are lanes of one warp-wide read
  // (Event::group): unordered among themselves, as the kernel's lanes.
  // Only loads and awaits may come between them.
  void begin_lanes() { group_ = static_cast<std::uint16_t>(pos_ + 1); }
  void end_lanes() { group_ = 0; }
  void require(bool ok, Property p, const std::string& message) {
    if (!ok && !suspended()) throw PropertyViolation{p, message};
  }
  // The same, with the message built only when the check fails: programs
  // are replayed for every graph, and building messages for checks that
  // hold cost the explorer a string allocation or several per replay.
  template <class Message>
  requires std::is_invocable_r_v<std::string, Message>
  void require(bool ok, Property p, Message&& message) {
    if (!ok && !suspended()) throw PropertyViolation{p, std::forward<Message>(message)()};
  }

  // Set once the program asked for an operation past its recorded events.
  std::optional<Op>& next() { return next_; }
  // From then on operations return placeholder values and do nothing; a
  // program's loops should test this and return (cheaper than unwinding).
  // One that keeps going is stopped by a `Suspend` exception.
  bool suspended() const { return next_.has_value(); }

  struct Suspend {};

 private:
  // The recorded event for the next operation, or suspends with `op`.
  const Event& step(Op op);

  const ExecutionGraph& g_;
  int thread_;
  std::size_t pos_ = 0;
  std::uint16_t group_ = 0;  // nonzero between begin_lanes and end_lanes
  int after_suspend_ = 0;
  std::optional<Op> next_;
  Event placeholder_{};
};

using Program = std::function<void(Ctx&)>;

// A closed system to explore: threads, their programs, and memory.
struct System {
  std::vector<ThreadInfo> threads;
  std::vector<Program> programs;
  std::vector<Value> init;             // initial value of each location
  std::vector<std::string> loc_names;  // for counterexamples
  std::vector<bool> descriptor;        // status-carrying locations (monotone-status)
  // Locations whose accesses commute with every other thread's: read-only, or
  // touched by one thread only. May be left empty (nothing is local).
  std::vector<bool> local;
  // Locations whose writes of one launch carry one value and are all plain
  // (relaxed, not RMWs, no release fence before them), never awaited: which
  // of them a read takes, and their coherence order, change nothing but
  // that location's own bookkeeping (explorer: models/src/interchangeable.hpp).
  // A hint: the explorer checks it on every access and, where a program
  // breaks it, explores again without it. May be left empty.
  std::vector<bool> interchangeable;
  // Locations whose stores a thread may perform as soon as they are its next
  // operation, alone: every access strong, no RMW, no await, no descriptor,
  // no thread finishing right after a store (explorer:
  // models/src/eager_writes.hpp). A hint, checked like `interchangeable`.
  // May be left empty.
  std::vector<bool> eager_writes;
  // Threads with the same non-negative class run the same program whatever
  // their index, so graphs that differ by permuting them are one graph.
  std::vector<int> symmetry_class;
  int resident = 0;  // at most this many started, unfinished blocks (0: any)
  int locations() const { return static_cast<int>(init.size()); }
};

}  // namespace lookback::model
