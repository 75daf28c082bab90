#include "eager_writes.hpp"

namespace lookback::model::detail {

namespace {
bool declared(const System& sys, const Op& op) {
  return op.kind != EventKind::Fence && !sys.eager_writes.empty() && sys.eager_writes[op.loc];
}
}  // namespace

bool is_eager_write(const System& sys, const Op& op) {
  return declared(sys, op) && op.kind == EventKind::Write && op.rmw == Op::Rmw::None;
}

bool keeps_eager(const System& sys, const Op& op) {
  if (!declared(sys, op)) return true;
  return !sys.descriptor[op.loc] && op.rmw == Op::Rmw::None && !op.exits &&
         op.order != Order::Weak && op.scope != Scope::Cta;
}

}  // namespace lookback::model::detail
