#include "lookback/model/program.hpp"

#include <stdexcept>

namespace lookback::model {

const Event& Ctx::step(Op op) {
  if (suspended()) {
    // Past the suspension point: let the program run out cheaply.
    if (++after_suspend_ > 64) throw Suspend{};
    return placeholder_;
  }
  if (group_ != 0) {
    if (op.kind != EventKind::Read)
      throw std::logic_error("only loads and awaits may be lanes of a window read");
    op.group = group_;
  }
  const auto& mine = g_.thread_events(thread_);
  if (pos_ < mine.size()) {
    const Event& e = g_.event(mine[pos_++]);
    // A deterministic program replays the same operations; anything else is a
    // bug in the program, not in the protocol.
    if (e.loc != op.loc || (e.is_fence() != (op.kind == EventKind::Fence)) || e.group != op.group)
      throw std::logic_error("program replay diverged");
    return e;
  }
  next_ = std::move(op);
  return placeholder_;
}

Value Ctx::load(Loc l, Order o, Step s, int tile) {
  Op op;
  op.kind = EventKind::Read;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  return step(std::move(op)).rval;
}

Value Ctx::load_unshared(Loc l, Order o, Step s, int tile) {
  Op op;
  op.kind = EventKind::Read;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  op.commutes = true;
  return step(std::move(op)).rval;
}

Value Ctx::await(Loc l, Order o, Step s, int tile, std::function<bool(const Value&)> exits) {
  Op op;
  op.kind = EventKind::Read;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  op.exits = std::move(exits);
  return step(std::move(op)).rval;
}

void Ctx::store(Loc l, const Value& v, Order o, Step s, int tile) {
  Op op;
  op.kind = EventKind::Write;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  op.wval = v;
  step(std::move(op));
}

Value Ctx::fetch_add(Loc l, std::int32_t add, Order o, Step s, int tile) {
  Op op;
  op.kind = EventKind::Rmw;
  op.rmw = Op::Rmw::FetchAdd;
  op.add = add;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  return step(std::move(op)).rval;
}

std::pair<bool, Value> Ctx::cas(Loc l, const Value& expected, const Value& desired, Order o, Step s,
                                int tile) {
  Op op;
  op.kind = EventKind::Rmw;
  op.rmw = Op::Rmw::Cas;
  op.expected = expected;
  op.wval = desired;
  op.loc = l;
  op.order = o;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  const Event& e = step(std::move(op));
  return {e.kind == EventKind::Rmw, e.rval};
}

void Ctx::fence(Fence f, Step s, int tile) {
  if (f == Fence::None) return;
  Op op;
  op.kind = EventKind::Fence;
  op.fence = f;
  op.step = s;
  op.tile = static_cast<std::int16_t>(tile);
  step(std::move(op));
}

}  // namespace lookback::model
