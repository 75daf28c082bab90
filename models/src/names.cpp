// Printable names of model values and steps.
#include <string>

#include "lookback/model/event.hpp"
#include "lookback/model/value.hpp"

namespace lookback::model {

std::string to_string(const Interval& iv) {
  switch (iv.kind) {
    case Interval::Kind::Empty:
      return "{}";
    case Interval::Kind::Bad:
      return "BAD";
    case Interval::Kind::Range:
      break;
  }
  // Appended, not "[" + std::to_string(...): GCC 12 warns falsely
  // (-Wrestrict) on a literal plus a temporary string at -O3.
  std::string s = "[";
  s += std::to_string(iv.lo);
  if (iv.hi != iv.lo) s += ".." + std::to_string(iv.hi);
  if (iv.regrouped) s += " regrouped";  // not bracketed as a left fold
  s += "]";
  if (iv.launch < 0)
    s += "@stale";
  else if (iv.launch > 0)
    s += "@L" + std::to_string(iv.launch);
  return s;
}

std::string to_string(const Value& v, bool descriptor) {
  if (!descriptor) {
    if (v.iv.kind != Interval::Kind::Empty || v.pub != 0) return to_string(v.iv);
    // The launch word: ticket and epoch.
    if (v.epoch != 0) return std::to_string(v.num) + "/e" + std::to_string(v.epoch);
    return std::to_string(v.num);
  }
  std::string s = protocol::to_string(v.status);
  if (v.iv.kind != Interval::Kind::Empty) s += to_string(v.iv);
  s += "/e" + std::to_string(v.epoch);
  return s;
}

const char* to_string(Step s) {
  switch (s) {
    case Step::Litmus:
      return "";
    case Step::TakeTicket:
      return "take ticket";
    case Step::LoadInput:
      return "load input";
    case Step::PublishAggregate:
      return "publish AGGREGATE";
    case Step::PublishPrefix:
      return "publish PREFIX";
    case Step::LookbackStatus:
      return "look-back read";
    case Step::LookbackValue:
      return "look-back value";
    case Step::LookbackFence:
      return "look-back fence";
    case Step::RefoldStatus:
      return "second-pass read";
    case Step::RefoldValue:
      return "second-pass value";
    case Step::PublishFence:
      return "publish fence";
    case Step::FallbackLoadInput:
      return "fallback: reduce input";
    case Step::FallbackValidate:
      return "fallback: validate";
    case Step::FallbackPublish:
      return "fallback: publish";
    case Step::OutputFence:
      return "output fence";
    case Step::StoreOutput:
      return "store output";
    case Step::FinishCounter:
      return "count finished";
    case Step::ResetCounter:
      return "reset counter";
    case Step::ClearDescriptor:
      return "clear descriptor";
    case Step::HandOver:
      return "hand over the launch word";
    case Step::HostReset:
      return "host reset";
    case Step::Padding:
      return "read padding";
  }
  return "?";
}

}  // namespace lookback::model
