// The litmus format: what well-formed files parse to, that printing and
// re-parsing is the identity, and that every malformed file gets one error
// at the exact line and column of its cause.
#include <gtest/gtest.h>

#include <string>

#include "lookback/model/litmus_parse.hpp"
#include "lookback/model/litmus_print.hpp"

namespace {

using namespace lookback::model;

constexpr const char* kMessagePassing = R"(litmus MP+rel+acq
// comment
init x = 0; y = 0
thread P0 cta 0:
  st.relaxed.gpu [x], 1
  st.release.gpu [y], 1
thread P1 cta 1:
  r0 = ld.acquire.gpu [y]
  r1 = ld.relaxed.gpu [x]  dep r0      // explicit dependency
exists (P1:r0 == 1 /\ P1:r1 == 0)
expect ptx forbidden
expect rc11 forbidden
)";

TEST(LitmusParse, MessagePassing) {
  const LitmusTest t = parse_litmus(kMessagePassing);
  EXPECT_EQ(t.name, "MP+rel+acq");
  EXPECT_EQ(t.loc_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(t.init, (std::vector<std::int32_t>{0, 0}));
  ASSERT_EQ(t.threads.size(), 2u);
  EXPECT_EQ(t.threads[1].name, "P1");
  EXPECT_EQ(t.threads[1].cta, 1);
  EXPECT_EQ(t.threads[1].regs, (std::vector<std::string>{"r0", "r1"}));
  const Instruction& rel = t.threads[0].code[1];
  EXPECT_EQ(rel.op, LitmusOp::Store);
  EXPECT_EQ(rel.order, Order::Release);
  EXPECT_EQ(rel.scope, Scope::Gpu);
  EXPECT_EQ(rel.loc, 1);
  EXPECT_EQ(rel.value.imm, 1);
  const Instruction& data = t.threads[1].code[1];
  EXPECT_EQ(data.op, LitmusOp::Load);
  EXPECT_EQ(data.dest, 1);
  EXPECT_EQ(data.deps, 1u);  // on instruction 0
  EXPECT_EQ(data.pos.line, 9);
  EXPECT_EQ(data.pos.col, 8);
  EXPECT_EQ(t.condition.quantifier, Quantifier::Exists);
  EXPECT_EQ(t.condition.expr.kind, Expr::Kind::And);
  EXPECT_EQ((std::map<MemoryModel, bool>{{MemoryModel::Ptx, false}, {MemoryModel::Rc11, false}}),
            t.expect);
}

TEST(LitmusParse, QualifiersDefaultsAndOperands) {
  const LitmusTest t = parse_litmus(R"(litmus Q
thread A:
  r0 = ld.volatile [x]
  r1 = atom.cas.global.b32 [x], r0, 5
  atom.acq_rel.cta.exch [y], 2
  membar.gl
  fence.acq_rel.sys
  st [y], r1
  r0 = ld.weak [y]
thread B:
  st.volatile [x], 1
forall (~A:r0 == 0 \/ x != 1 /\ true)
)");
  const auto& a = t.threads[0].code;
  EXPECT_TRUE(a[0].is_volatile);
  EXPECT_EQ(a[0].order, Order::Relaxed);
  EXPECT_EQ(a[0].scope, Scope::Sys);
  EXPECT_EQ(a[1].op, LitmusOp::Rmw);
  EXPECT_EQ(a[1].rmw, RmwOp::Cas);
  EXPECT_EQ(a[1].order, Order::Relaxed);  // atom's default order and scope
  EXPECT_EQ(a[1].scope, Scope::Gpu);
  EXPECT_TRUE(a[1].compare.is_reg);
  EXPECT_EQ(a[1].compare.def, 0);
  EXPECT_EQ(a[1].value.imm, 5);
  EXPECT_EQ(a[1].deps, 1u);  // a register operand is a dependency
  EXPECT_EQ(a[2].order, Order::AcqRel);
  EXPECT_EQ(a[2].scope, Scope::Cta);
  EXPECT_EQ(a[2].dest, -1);
  EXPECT_EQ(a[3].fence, Fence::Sc);  // membar.gl is fence.sc.gpu
  EXPECT_EQ(a[3].scope, Scope::Gpu);
  EXPECT_EQ(a[4].fence, Fence::AcqRel);
  EXPECT_EQ(a[4].scope, Scope::Sys);
  EXPECT_EQ(a[5].value.def, 1);
  EXPECT_EQ(a[5].deps, 2u);
  EXPECT_EQ(a[6].order, Order::Weak);
  EXPECT_EQ(a[6].dest, 0);  // r0 written again
  // Threads without `cta N` each get a CTA of their own.
  EXPECT_NE(t.threads[0].cta, t.threads[1].cta);
  // ~ binds tighter than /\, which binds tighter than \/.
  const Expr& e = t.condition.expr;
  EXPECT_EQ(t.condition.quantifier, Quantifier::Forall);
  ASSERT_EQ(e.kind, Expr::Kind::Or);
  EXPECT_EQ(e.kids[0].kind, Expr::Kind::Not);
  ASSERT_EQ(e.kids[1].kind, Expr::Kind::And);
  EXPECT_TRUE(e.kids[1].kids[0].negated);
  EXPECT_EQ(e.kids[1].kids[1].kind, Expr::Kind::True);
}

TEST(LitmusParse, ConditionMaySpanLinesAndNameThreadsByNumber) {
  const LitmusTest t = parse_litmus(
      "litmus L\nthread P0:\n  r0 = ld [x]\n~exists (0:r0 == 1 /\\\n         x == 0)\n");
  EXPECT_EQ(t.condition.quantifier, Quantifier::NotExists);
  ASSERT_EQ(t.condition.expr.kids.size(), 2u);
  EXPECT_EQ(t.condition.expr.kids[0].thread, 0);
}

TEST(LitmusParse, PrintingThenParsingGivesTheSameTest) {
  const LitmusTest t = parse_litmus(kMessagePassing);
  const std::string text = to_litmus_text(t);
  EXPECT_EQ(parse_litmus(text), t) << text;
  EXPECT_NE(text.find("r1 = ld.relaxed.gpu [x] dep r0"), std::string::npos) << text;
  EXPECT_NE(text.find("exists (P1:r0 == 1 /\\ P1:r1 == 0)"), std::string::npos) << text;
}

struct Malformed {
  const char* text;
  int line, col;
  const char* message;  // a part of it
};

class LitmusParseError : public testing::TestWithParam<Malformed> {};

TEST_P(LitmusParseError, ReportsLineColumnAndCause) {
  const Malformed& m = GetParam();
  try {
    parse_litmus(m.text);
    FAIL() << "parsed: " << m.text;
  } catch (const LitmusSyntaxError& e) {
    EXPECT_EQ(e.pos().line, m.line) << e.what();
    EXPECT_EQ(e.pos().col, m.col) << e.what();
    EXPECT_NE(std::string(e.what()).find(m.message), std::string::npos) << e.what();
    const std::string line = format_error("t.litmus", e);
    EXPECT_EQ(
        line.rfind("t.litmus:" + std::to_string(m.line) + ":" + std::to_string(m.col) + ": ", 0),
        0u)
        << line;
  }
}

// A header and one thread, for the cases that need them.
#define HEAD "litmus T\nthread P0:\n"

INSTANTIATE_TEST_SUITE_P(
    Cases, LitmusParseError,
    testing::Values(
        Malformed{"", 1, 1, "empty file"},
        Malformed{"init x = 0\n", 1, 1, "starts with `litmus NAME`"},
        Malformed{"litmus\n", 1, 7, "needs a test name"},
        Malformed{"litmus T\n  st [x], 1\n", 2, 3, "outside a thread"},
        Malformed{HEAD "  foo [x]\nexists (true)\n", 3, 3, "unknown instruction 'foo'"},
        Malformed{HEAD "  r0 = ld.relaxed [x]\n", 3, 8, "ld.relaxed needs a scope"},
        Malformed{HEAD "  r0 = ld.release.gpu [x]\n", 3, 11, "ld cannot be .release"},
        Malformed{HEAD "  st.acquire.gpu [x], 1\n", 3, 6, "st cannot be .acquire"},
        Malformed{HEAD "  r0 = ld.gpu [x]\n", 3, 11, "a weak access takes no scope"},
        Malformed{HEAD "  r0 = ld.volatile.sys [x]\n", 3, 20, "takes no scope"},
        Malformed{HEAD "  r0 = ld.relaxed.gpu.acquire [x]\n", 3, 23, "more than one memory order"},
        Malformed{HEAD "  r0 = ld.relaxed.foo [x]\n", 3, 19, "unknown qualifier '.foo'"},
        Malformed{HEAD "  r0 = ld..relaxed [x]\n", 3, 11, "empty qualifier"},
        Malformed{HEAD "  ld.relaxed.gpu [x]\n", 3, 3, "ld needs a destination register"},
        Malformed{HEAD "  r0 = st [x], 1\n", 3, 3, "st writes no register"},
        Malformed{HEAD "  st.relaxed.gpu [x], r5\n", 3, 23, "register 'r5' is not written"},
        Malformed{HEAD "  st [x], 1 dep r0\n", 3, 17, "register 'r0' is not written"},
        Malformed{HEAD "  st [x] 1\n", 3, 10, "expected ','"},
        Malformed{HEAD "  r0 = ld [x\n", 3, 13, "expected ']'"},
        Malformed{HEAD "  st [x], 1 2\n", 3, 13, "unexpected '2' after the instruction"},
        Malformed{HEAD "  st [x], 4294967296\n", 3, 11, "does not fit in 32 bits"},
        Malformed{HEAD "  atom.relaxed.gpu [x], 1\n", 3, 3, "atom needs an operation"},
        Malformed{HEAD "  atom.weak.add [x], 1\n", 3, 8, "atom cannot be .weak"},
        Malformed{HEAD "  r0 = ld.add [x]\n", 3, 11, "'.add' only applies to atom"},
        Malformed{HEAD "  fence.gpu\n", 3, 3, "fence needs .sc or .acq_rel"},
        Malformed{HEAD "  fence.sc\n", 3, 3, "fence needs a scope"},
        Malformed{HEAD "  fence.sc.gl\n", 3, 12, "'.gl' is a membar level"},
        Malformed{HEAD "  st [x], 1 @\n", 3, 13, "unexpected character '@'"},
        Malformed{HEAD "  st [x], 1\n", 4, 1, "missing condition"},
        Malformed{"litmus T\nthread P0:\nthread P1:\n  st [x], 1\nexists (true)\n", 2, 1,
                  "thread P0 has no instructions"},
        Malformed{HEAD "  st [x], 1\nthread P0:\n", 4, 8, "thread 'P0' defined twice"},
        Malformed{HEAD "  st [x], 1\nthread P1 cta -1:\n", 4, 15, "CTA number out of range"},
        Malformed{HEAD "  st [x], 1\nthread P1\n", 4, 10, "expected ':'"},
        Malformed{HEAD "  st [x], 1\ninit y = 0\n", 4, 1, "`init` must come before"},
        Malformed{"litmus T\ninit x = 0; x = 1\n", 2, 13, "initialised twice"},
        Malformed{HEAD "  r0 = ld [x]\nexists (P0:r9 == 1)\n", 4, 12, "has no register 'r9'"},
        Malformed{HEAD "  r0 = ld [x]\nexists (P7:r0 == 1)\n", 4, 9, "unknown thread 'P7'"},
        Malformed{HEAD "  r0 = ld [x]\nexists (z == 1)\n", 4, 9, "unknown location 'z'"},
        Malformed{HEAD "  r0 = ld [x]\nexists (x 1)\n", 4, 11, "expected '==' or '!='"},
        Malformed{HEAD "  r0 = ld [x]\nexists (x == 1\n", 5, 1, "expected ')'"},
        Malformed{HEAD "  r0 = ld [x]\nexists (x == 1) (x == 0)\n", 4, 17, "in the condition"},
        Malformed{HEAD "  r0 = ld [x]\nexists (x == 1)\n  st [x], 1\n", 5, 3,
                  "only `expect` lines may follow"},
        Malformed{HEAD "  r0 = ld [x]\nexists (true)\nexpect arm allowed\n", 5, 8,
                  "unknown memory model 'arm'"},
        Malformed{HEAD "  r0 = ld [x]\nexists (true)\nexpect ptx maybe\n", 5, 12,
                  "expected `allowed` or `forbidden`"},
        Malformed{HEAD "  r0 = ld [x]\nexists (true)\nexpect sc allowed\nexpect sc allowed\n", 6, 8,
                  "a second `expect` line for sc"}));

}  // namespace
