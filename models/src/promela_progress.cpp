// Termination in the Promela model, under the progress models the explorer
// implements (definitions after Sorensen et al., OOPSLA 2021, as in
// explorer.cpp's check_termination).
//
// Every wait in the protocol is an await: a guard that is false until
// another block writes. A block sitting at a false guard is disabled, and
// only a write by another thread can enable it again. So an infinite
// execution in which every thread the progress model obliges the scheduler
// to run makes no progress is exactly a reachable state in which every
// obliged thread is disabled (the unobliged ones may be starved for ever).
// That makes each model's liveness premise a state predicate:
//   FAIR   every unfinished thread is obliged: a hang is a deadlock, found by
//          pan's own invalid-end-state check (and, as LTL, <> finished);
//   OBE    started blocks are obliged;
//   HSA    the lowest-numbered unfinished block is obliged;
//   LOBE   every block numbered at most the highest started one is obliged;
//   UNFAIR nothing is: any disabled block is a hang.
// An unstarted block the occupancy bound keeps out counts as disabled.
#include <string>

#include "promela_writer.hpp"

namespace lookback::model::promela {

namespace {

using namespace protocol;

// String building by appending only (GCC 12 misreports "literal" + string
// chains as overlapping copies).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (s.append(parts), ...);
  return s;
}

std::string at(const char* array, int t) {
  return cat(array, "[", std::to_string(t), "]");
}

struct Terms {
  const Geometry& g;
  int resident;

  std::string unfinished(int t) const {
    return cat("(phase == ", std::to_string(g.threads[static_cast<std::size_t>(t)].phase), " && !",
               at("fin", t), ")");
  }
  std::string started_unfinished(int t) const {
    return cat("(", unfinished(t), " && ", at("started", t), ")");
  }
  // A block of the running launch that took a step, finished or not.
  std::string started_now(int t) const {
    return cat("(phase == ", std::to_string(g.threads[static_cast<std::size_t>(t)].phase), " && ",
               at("started", t), ")");
  }
  // Started and sitting at an await whose condition is false.
  std::string blocked(int t) const {
    const std::string wt = at("wt", t), d = cat("[", wt, " - W_DESC]");
    return cat("(", at("started", t), " && ((", wt, " == W_PAD && pad_st == INVALID) || (", wt,
               " >= W_DESC && EFF(d_st", d, ", d_ep", d, ", ", at("bep", t), ") == INVALID)))");
  }
  std::string unstartable(int t) const {
    if (resident <= 0) return "false";
    return cat("(!", at("started", t), " && busy >= ", std::to_string(resident), ")");
  }
  std::string stuck(int t) const { return cat("(", blocked(t), " || ", unstartable(t), ")"); }
  int n() const { return static_cast<int>(g.threads.size()); }

  // term(from) op ... op term(to - 1), parenthesised; the empty case is the
  // operator's unit.
  template <class Term>
  std::string fold(const char* op, Term term, int from, int to) const {
    std::string s;
    for (int t = from; t < to; ++t)
      s = s.empty() ? term(t) : cat(s, op, term(t));
    if (s.empty()) return std::string(op) == " || " ? "false" : "true";
    return cat("(", s, ")");
  }
  template <class Term>
  std::string some(Term term) const {
    return fold(" || ", term, 0, n());
  }
  template <class Term>
  std::string all(Term term, int from, int to) const {
    return fold(" && ", term, from, to);
  }

  std::string hang(Progress p) const {
    switch (p) {
      case Progress::Fair:
        return "false";  // deadlocks: pan's end-state check
      case Progress::Obe:
        return cat(
            some([&](int t) { return started_unfinished(t); }), " && ",
            all([&](int t) { return cat("(!", started_unfinished(t), " || ", blocked(t), ")"); }, 0,
                n()));
      case Progress::Unfair:
        return some([&](int t) { return cat("(", unfinished(t), " && ", blocked(t), ")"); });
      case Progress::Hsa:
        return some([&](int t) {
          return cat("(", unfinished(t), " && ",
                     all([&](int u) { return cat("!", unfinished(u)); }, 0, t), " && ", stuck(t),
                     ")");
        });
      case Progress::Lobe:
        // top: the highest block of the launch that took a step, finished
        // or not; every unfinished block up to it stuck, one of them waiting.
        return some([&](int top) {
          return cat(
              "(", started_now(top), " && ",
              all([&](int u) { return cat("!", started_now(u)); }, top + 1, n()), " && ",
              all([&](int u) { return cat("(!", unfinished(u), " || ", stuck(u), ")"); }, 0,
                  top + 1),
              " && ",
              fold(
                  " || ", [&](int u) { return cat("(", unfinished(u), " && ", blocked(u), ")"); },
                  0, top + 1),
              ")");
        });
    }
    return "false";
  }
};

}  // namespace

void write_progress(Writer& w, const PromelaSpec& spec, const Geometry& g) {
  const Terms terms{g, spec.instance.resident};
  std::string fin;
  for (int t = 0; t < terms.n(); ++t)
    fin += (t ? " && " : "") + at("fin", t);
  w.line("#define ALL_FINISHED (" + fin + ")");
  const std::string model = to_string(spec.progress);
  if (spec.progress == Progress::Fair) {
    w.line("/* Progress model fair: a hang is a deadlock, an invalid end state (pan -A). */");
  } else {
    w.line("/* Progress model " + model + ": the states in which every thread the model obliges");
    w.line("   the scheduler to run is disabled (an await with a false guard). */");
    w.line("#define HANG (!halt && " + terms.hang(spec.progress) + ")");
    w.line("#if !defined(GRAPH_HISTORY) && !defined(LIVENESS)");
    w.line("active proctype progress_monitor() {");
    w.in();
    w.line("end_watch:");
    w.line("atomic {");
    w.in();
    w.line("HANG ->");
    w.line("printf(\"lookback: violated termination: a hang under " + model + "\\n\");");
    w.line(property_flag(Property::Termination) + " = 1;");
    w.line("assert(!" + property_flag(Property::Termination) + ");");
    w.out();
    w.line("}");
    w.out();
    w.line("}");
    w.line("#endif");
  }
  w.blank();
  w.line("/* Liveness as LTL (pan -a): every execution ends with all blocks finished or");
  w.line("   at a violated property. Paths are finite here, so this is the deadlock check");
  w.line("   again; under weak fairness (-f) it stays the fair-scheduling claim. */");
  w.line("#ifdef LIVENESS");
  w.line("ltl terminates { <> (halt || ALL_FINISHED) }");
  w.line("#endif");
  w.blank();
  w.line("/* One line per end state: with GRAPH_HISTORY, one per execution graph. */");
  w.line("#ifdef GRAPH_HISTORY");
  w.line("active proctype outcome_counter() {");
  w.in();
  w.line("end_count:");
  w.line("timeout ->");
  w.line("if");
  w.line(":: halt -> skip;  /* cut by a violation: not an execution */");
  w.line(":: !halt && ALL_FINISHED -> printf(\"lookback: outcome finished\\n\");");
  w.line(":: !halt && !ALL_FINISHED -> printf(\"lookback: outcome stuck\\n\");");
  w.line("fi;");
  w.out();
  w.line("}");
  w.line("#endif");
  w.blank();
}

}  // namespace lookback::model::promela
