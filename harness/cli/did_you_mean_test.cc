// Tests for the suggestions of a refused command line.
#include "harness/cli/did_you_mean.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(DidYouMeanTest, NearestNameIsATypoAwayOrNothing) {
  const std::vector<std::string> names = {"gate", "run", "list", "bench"};
  EXPECT_EQ(NearestName("gaet", names), "gate");
  EXPECT_EQ(NearestName("gat", names), "gate");
  EXPECT_EQ(NearestName("lsit", names), "list");
  EXPECT_EQ(NearestName("rnu", names), "run");
  EXPECT_EQ(NearestName("benchmark", names), "");
  EXPECT_EQ(NearestName("xy", names), "") << "two edits in a two-letter word is not a typo";
  EXPECT_EQ(NearestName("zzzz", names), "");
}

TEST(DidYouMeanTest, SuggestsSubcommandsAndOptionsWhereTheyStand) {
  CLI::App app;
  std::string root, isolation, suite;
  app.require_subcommand(1);
  app.add_option("--root", root);
  CLI::App* gate = app.add_subcommand("gate");
  gate->add_option("--isolation", isolation);
  gate->add_option("--suite", suite);
  app.add_subcommand("run");
  EXPECT_EQ(DidYouMean(app, {"gaet", "--suite", "x"}), "did you mean 'gate' for 'gaet'?\n");
  EXPECT_EQ(DidYouMean(app, {"gate", "--isolaton=case"}),
            "did you mean '--isolation' for '--isolaton'?\n");
  EXPECT_EQ(DidYouMean(app, {"--rot", "/r", "gate"}), "did you mean '--root' for '--rot'?\n");
  EXPECT_EQ(DidYouMean(app, {"gate", "--suite", "onnx-node"}), "");
  EXPECT_EQ(DidYouMean(app, {"gate", "--frobnicate"}), "");
}

}  // namespace
}  // namespace onnxgate
