// `onnxgate zoo generate <dir>` and `onnxgate zoo list`: the benchmark model zoo, generated
// deterministically from seeds.
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/zoo/zoo.h"

namespace onnxgate {

namespace {

struct ZooFlags {
  std::string dir;
  std::vector<std::string> globs;
  bool small = false;
  bool dynamic_batch = false;
};

}  // namespace

void AddZooCommand(CLI::App& app, CliContext& ctx) {
  static ZooFlags f;
  CLI::App* zoo = app.add_subcommand("zoo", "The benchmark model zoo (generated, never committed)");
  zoo->require_subcommand(1);
  CLI::App* gen = zoo->add_subcommand(
      "generate",
      "Write the zoo's models as <dir>/<name>.onnx; the bytes are the same on every run and "
      "machine");
  gen->add_option("dir", f.dir, "Folder to write into (created when missing)")->required();
  gen->add_option("--model", f.globs, "Only models whose name matches this glob (repeatable)");
  gen->add_flag("--small", f.small, "The small variants the unit tests run (same families)");
  gen->add_flag("--dynamic-batch", f.dynamic_batch,
                "Make the first dimension of every input and output the symbolic 'batch' (for "
                "onnxgate sweep --dim batch=...)");
  gen->callback([&ctx] {
    ctx.action = [] {
      zoo::ZooOptions options;
      options.dynamic_batch = f.dynamic_batch;
      auto written = zoo::GenerateZoo(f.dir, f.small ? zoo::SmallZooModels() : zoo::ZooModels(),
                                      f.globs, options);
      if (!written.ok()) {
        std::fprintf(stderr, "onnxgate zoo generate: %s\n", written.status().message().c_str());
        return 2;
      }
      for (const std::string& path : *written) std::printf("wrote %s\n", path.c_str());
      return 0;
    };
  });
  CLI::App* list = zoo->add_subcommand("list", "List the zoo's models");
  list->callback([&ctx] {
    ctx.action = [] {
      for (const zoo::ZooModel& m : zoo::ZooModels()) {
        std::printf("%-20s %s\n", m.name.c_str(), m.description.c_str());
      }
      return 0;
    };
  });
}

}  // namespace onnxgate
