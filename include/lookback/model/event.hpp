// Events of an execution graph: one memory access or fence of one thread.
// In the protocol model a "thread" is a whole block (its intra-block work is
// abstracted to single steps, but for a window read's concurrent lanes:
// Event::group); in litmus tests it is a PTX thread.
#pragma once

#include <cstdint>
#include <string>

#include "lookback/model/value.hpp"

namespace lookback::model {

using protocol::Fence;
using protocol::Order;

enum class Scope : std::uint8_t { Cta, Gpu, Sys };

enum class EventKind : std::uint8_t { Read, Write, Rmw, Fence };

// What protocol step an event belongs to (for counterexamples only).
enum class Step : std::uint8_t {
  Litmus,
  TakeTicket,
  LoadInput,
  PublishAggregate,
  PublishPrefix,
  LookbackStatus,
  LookbackValue,
  LookbackFence,
  RefoldStatus,  // the left fold's second pass (Fold::LeftFold)
  RefoldValue,
  PublishFence,
  FallbackLoadInput,
  FallbackValidate,
  FallbackPublish,
  OutputFence,
  StoreOutput,
  FinishCounter,
  ResetCounter,
  ClearDescriptor,
  HandOver,  // the launch word for the next launch
  HostReset,
  Padding,
};
const char* to_string(Step s);

using Loc = std::uint16_t;
inline constexpr int kInit = -1;  // rf source: the initial value

struct Event {
  EventKind kind = EventKind::Read;
  Order order = Order::Weak;  // access order (reads/writes/RMWs)
  Fence fence = Fence::None;  // fence kind (Fence events)
  Scope scope = Scope::Gpu;
  Loc loc = 0;
  std::uint8_t thread = 0;
  std::uint16_t index = 0;  // position in its thread (program order)
  Step step = Step::Litmus;
  std::int16_t tile = -1;  // tile the step is about (for printing)
  Value wval{};            // value written (Write, Rmw)
  Value rval{};            // value read (Read, Rmw)
  int rf = kInit;          // event id read from (Read, Rmw)
  std::uint64_t deps = 0;  // bit k: depends on this thread's k-th event (a read)
  bool await = false;      // a spin read: it only returns values that exit the loop
  // Nonzero: one lane's read of a warp-wide window read. The thread's
  // consecutive events with the same group are unordered in program order
  // among themselves (the kernel's lanes read concurrently; its ballot orders
  // no memory); every event before the group precedes each of them and every
  // event after it follows each. The value is the group's first index + 1,
  // so two groups in a row differ.
  std::uint16_t group = 0;

  bool is_read() const { return kind == EventKind::Read || kind == EventKind::Rmw; }
  bool is_write() const { return kind == EventKind::Write || kind == EventKind::Rmw; }
  bool is_fence() const { return kind == EventKind::Fence; }
  bool is_mem() const { return kind != EventKind::Fence; }
  bool is_strong() const { return is_mem() ? order != Order::Weak : true; }
  bool is_acquire() const {
    return is_read() && (order == Order::Acquire || order == Order::AcqRel);
  }
  bool is_release() const {
    return is_write() && (order == Order::Release || order == Order::AcqRel);
  }
  // Whether this event and `later`, an event after it in the same thread,
  // are unordered lanes of one group (so not in program order).
  bool same_group(const Event& later) const { return group != 0 && group == later.group; }
};

}  // namespace lookback::model
