// A runtime through the adapter protocol, against runtime/adapter/testing/fault_adapter.py: the
// facts of its hello, a run, and each way an adapter can fail to start or answer, as one clear
// error naming the adapter and what went wrong.
#include "runtime/adapter/adapter_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

std::string FaultAdapter(const std::string& fault) {
  return "python3 " + std::string(ONNXGATE_FAULT_ADAPTER) + " " + fault;
}

Value Floats(std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(Shape({static_cast<int64_t>(v.size())}), v));
}

LoadOptions OnEcho() {
  LoadOptions options;
  options.providers = {"echo"};
  return options;
}

TEST(AdapterRuntimeTest, AWellBehavedAdapterLoadsAndRuns) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("none"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  EXPECT_EQ((*runtime)->name(), "fault-adapter");
  EXPECT_EQ((*runtime)->version(), "1.0");
  EXPECT_EQ((*runtime)->accepted_versions().opsets.at("").max, 28);
  EXPECT_EQ((*runtime)->MaxIntraOpThreads("echo").value(), 1);
  EXPECT_THAT((*runtime)->MaxIntraOpThreads("gpu").status().message(),
              HasSubstr("unknown execution provider 'gpu'"));
  EXPECT_EQ((*runtime)->Claims("echo").value().size(), 1u);
  auto model = (*runtime)->Load("case.onnx", OnEcho());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->inputs()[0].dims[0].symbol, "N");
  EXPECT_EQ((*model)->placements()[0].provider, "echo");
  auto out = (*model)->Run({{"X", Floats({1, -2})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2] {1, -2}");
}

std::string StartError(const std::string& command) {
  auto runtime = CreateAdapterRuntime(command, {});
  EXPECT_FALSE(runtime.ok());
  return runtime.status().message();
}

TEST(AdapterRuntimeTest, AnAdapterThatCannotStartIsOneClearError) {
  EXPECT_THAT(StartError("/nonexistent/adapter --flag"),
              HasSubstr("adapter '/nonexistent/adapter --flag': cannot run "
                        "'/nonexistent/adapter': No such file or directory"));
  EXPECT_THAT(StartError(FaultAdapter("exit_at_start")),
              HasSubstr("exited with code 3 before answering hello"));
  EXPECT_THAT(StartError(FaultAdapter("garbage_hello")),
              HasSubstr("not a protocol frame: got 'hello from a program"));
  auto refused = CreateAdapterRuntime(FaultAdapter("none"), {{"x", "1"}});
  ASSERT_TRUE(refused.ok()) << "the fault adapter ignores options";
}

std::string RunError(const std::string& fault, StatusCode expected_code) {
  auto runtime = CreateAdapterRuntime(FaultAdapter(fault), {});
  EXPECT_TRUE(runtime.ok()) << runtime.status().ToString();
  if (!runtime.ok()) return "";
  auto model = (*runtime)->Load("case.onnx", OnEcho());
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  if (!model.ok()) return "";
  auto out = (*model)->Run({{"X", Floats({1})}});
  EXPECT_EQ(out.status().code(), expected_code) << out.status().ToString();
  EXPECT_THAT(out.status().message(), HasSubstr("adapter '" + FaultAdapter(fault) + "'"));
  EXPECT_THAT(out.status().message(), HasSubstr("running case.onnx"));
  return out.status().message();
}

TEST(AdapterRuntimeTest, WhatAnAdapterAnswersWrongIsOneClearError) {
  EXPECT_THAT(RunError("die_on_run", StatusCode::kAborted), HasSubstr("exited with code 1"));
  EXPECT_THAT(RunError("garbage_on_run", StatusCode::kInternal),
              HasSubstr("not a protocol frame: got 'Traceback (most recent call last):"));
  EXPECT_THAT(RunError("output_count", StatusCode::kInternal),
              HasSubstr("returned 0 outputs; the model has 1"));
  EXPECT_THAT(RunError("no_message", StatusCode::kInternal),
              HasSubstr("failed with INTERNAL and no message (a fault of the adapter)"));
}

TEST(AdapterRuntimeTest, ARequestJsonCannotCarryIsRefusedAndTheAdapterKept) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("none"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  auto model = (*runtime)->Load("caf\xe9.onnx", OnEcho());
  EXPECT_EQ(model.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(model.status().message(), HasSubstr("a request the protocol cannot carry"));
  EXPECT_TRUE((*runtime)->Load("case.onnx", OnEcho()).ok());
}

TEST(AdapterRuntimeTest, AnAdapterThatDiesIsStartedAgain) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("die_on_run"), {});
  ASSERT_TRUE(runtime.ok());
  for (int i = 0; i < 2; ++i) {
    auto model = (*runtime)->Load("case.onnx", OnEcho());
    ASSERT_TRUE(model.ok()) << "load " << i << ": " << model.status().ToString();
    EXPECT_EQ((*model)->Run({{"X", Floats({1})}}).status().code(), StatusCode::kAborted);
  }
}

TEST(AdapterRuntimeTest, AnAdapterThatHangsIsKilledAtTheDeadline) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("hang_on_run"), {}, AdapterTimeoutsFor(0.5));
  ASSERT_TRUE(runtime.ok());
  auto model = (*runtime)->Load("case.onnx", OnEcho());
  ASSERT_TRUE(model.ok());
  auto out = (*model)->Run({{"X", Floats({1})}});
  EXPECT_EQ(out.status().code(), StatusCode::kAborted);
  EXPECT_THAT(out.status().message(), HasSubstr("running case.onnx: no answer within 0.5 s"));
}

TEST(AdapterRuntimeTest, TheControlDeadlineIsTheCaseTimeoutOrADocumentedDefault) {
  EXPECT_EQ(AdapterTimeoutsFor(0).control, kDefaultAdapterControlTimeout);
  EXPECT_EQ(AdapterTimeoutsFor(2.5).control, std::chrono::milliseconds(2500));
  EXPECT_EQ(AdapterTimeoutsFor(2.5).call, AdapterTimeouts{}.call);
}

TEST(AdapterRuntimeTest, AnAdapterThatNeverAnswersClaimsCostsTheControlDeadline) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("hang_on_claims"), {}, AdapterTimeoutsFor(0.3));
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  auto claims = (*runtime)->Claims("echo");
  EXPECT_EQ(claims.status().code(), StatusCode::kAborted);
  EXPECT_THAT(claims.status().message(),
              HasSubstr("adapter '" + FaultAdapter("hang_on_claims") +
                        "': claims of provider 'echo': no answer within 0.3 s"));
  // The adapter was ended and a new one answers the next request.
  EXPECT_EQ((*runtime)->MaxIntraOpThreads("echo").value(), 1);
}

TEST(AdapterRuntimeTest, AnErrorWhoseCodeOrMessageIsNotAStringNamesTheField) {
  EXPECT_THAT(
      RunError("code_number", StatusCode::kInternal),
      HasSubstr(
          "running case.onnx: failed: code: expected a string, got 5 (a fault of the adapter)"));
  EXPECT_THAT(
      RunError("message_object", StatusCode::kInternal),
      HasSubstr(
          "running case.onnx: failed: message: expected a string, got an object (a fault of the "
          "adapter)"));
}

TEST(AdapterRuntimeTest, AnOutputWhoseDtypeIsAStringNamesTheAdapterAndTheField) {
  EXPECT_THAT(RunError("dtype_string", StatusCode::kInvalidArgument),
              HasSubstr("running case.onnx: outputs[0].dtype: expected an integer, got \"float\""));
}

TEST(AdapterRuntimeTest, AReplyNestedAMillionDeepIsRefusedUnparsed) {
  const std::string message = RunError("nested_reply", StatusCode::kInternal);
  EXPECT_THAT(message, HasSubstr("frame header: brackets nest deeper than 64 levels"));
  EXPECT_LT(message.size(), 1000u) << "the header is quoted, never dumped whole";
}

TEST(AdapterRuntimeTest, AProviderNameThatIsNotASafeNameRefusesTheHello) {
  EXPECT_THAT(StartError(FaultAdapter("bad_provider")),
              HasSubstr("hello: providers[0]: provider name "
                        "'../../../../pwned-baseline'"));
}

TEST(AdapterRuntimeTest, TheHelloSaysWhetherEachCaseNeedsAProcessOfItsOwn) {
  auto worker = CreateAdapterRuntime(FaultAdapter("none"), {});
  ASSERT_TRUE(worker.ok()) << worker.status().ToString();
  EXPECT_FALSE((*worker)->NeedsCaseIsolation()) << "no isolation field: worker";
  auto isolated = CreateAdapterRuntime(FaultAdapter("isolation_case"), {});
  ASSERT_TRUE(isolated.ok()) << isolated.status().ToString();
  EXPECT_TRUE((*isolated)->NeedsCaseIsolation());
}

TEST(AdapterRuntimeTest, AProviderTheHelloCallsUnavailableSaysWhy) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("unavailable"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  const Status gone = (*runtime)->ProviderAvailability("gone");
  EXPECT_EQ(gone.code(), StatusCode::kUnavailable);
  EXPECT_THAT(gone.message(), HasSubstr("no gone device on this machine"));
  EXPECT_TRUE((*runtime)->ProviderAvailability("echo").ok());
  EXPECT_THAT(StartError(FaultAdapter("unavailable_stray")),
              HasSubstr("hello: unavailable.elsewhere: provider 'elsewhere' is not one of the "
                        "hello's providers"));
}

TEST(AdapterRuntimeTest, AnIsolationOtherThanWorkerOrCaseRefusesTheHello) {
  EXPECT_THAT(StartError(FaultAdapter("isolation_bad")),
              HasSubstr("': hello: isolation: expected \"worker\" or \"case\", got "
                        "\"sometimes\""));
  EXPECT_THAT(StartError(FaultAdapter("isolation_number")),
              HasSubstr("': hello: isolation: expected a string, got 1"));
}

TEST(AdapterRuntimeTest, AnAdapterOfTheFirstProtocolIsToldItsVersion) {
  EXPECT_THAT(StartError(FaultAdapter("old_protocol")),
              HasSubstr("the adapter speaks protocol version 1; this build "
                        "speaks version 2"));
}

TEST(AdapterRuntimeTest, ALateDuplicateReplyIsNeverTheNextRequestsReply) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("duplicate_load"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  auto model = (*runtime)->Load("case.onnx", OnEcho());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto out = (*model)->Run({{"X", Floats({3})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[1] {3}");
}

TEST(AdapterRuntimeTest, AReplyWithAnUnknownOrNoIdIsTheAdaptersFault) {
  EXPECT_THAT(RunError("wrong_id", StatusCode::kInternal),
              HasSubstr("the reply carries the id '1003' where the request's "
                        "id 3 was expected"));
  EXPECT_THAT(RunError("no_id", StatusCode::kInternal),
              HasSubstr("the reply carries no 'id' where the request's id 3 was expected"));
}

// A model of `fault`'s adapter, loaded; null (with a test failure) where it cannot be.
std::unique_ptr<LoadedModel> LoadOn(const std::string& fault,
                                    std::unique_ptr<RuntimeUnderTest>* runtime) {
  auto created = CreateAdapterRuntime(FaultAdapter(fault), {});
  EXPECT_TRUE(created.ok()) << created.status().ToString();
  if (!created.ok()) return nullptr;
  *runtime = std::move(created).value();
  auto model = (*runtime)->Load("case.onnx", OnEcho());
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(model).value() : nullptr;
}

TEST(AdapterRuntimeTest, TimedRunsAreAskedOnlyOfAnAdapterThatOffersThem) {
  std::unique_ptr<RuntimeUnderTest> runtime;
  auto offered = LoadOn("timed_runs", &runtime);
  ASSERT_NE(offered, nullptr);
  auto times = offered->TimedRuns({{"X", Floats({1, 2})}}, 4);
  ASSERT_TRUE(times.ok()) << times.status().ToString();
  EXPECT_EQ(*times, std::vector<double>(4, 0.25));
  EXPECT_THAT(offered->TimedRuns({{"X", Floats({1})}}, 0).status().message(),
              HasSubstr("runs must be 1 to"));
  // The adapter answers runs as before.
  EXPECT_TRUE(offered->Run({{"X", Floats({1})}}).ok());

  std::unique_ptr<RuntimeUnderTest> plain_runtime;
  auto plain = LoadOn("none", &plain_runtime);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->TimedRuns({{"X", Floats({1})}}, 4).status().code(), StatusCode::kUnimplemented);
}

TEST(AdapterRuntimeTest, AWrongTimedRunsReplyIsTheAdaptersFaultNamingTheField) {
  for (const auto& [fault, needle] : std::vector<std::pair<std::string, std::string>>{
           {"timed_runs_count", "times_ms: holds 2 times for 3 runs"},
           {"timed_runs_negative", "times_ms[0]: a run's time must be a number >= 0"},
           {"timed_runs_no_clock", "clock"}}) {
    std::unique_ptr<RuntimeUnderTest> runtime;
    auto model = LoadOn(fault, &runtime);
    ASSERT_NE(model, nullptr);
    auto times = model->TimedRuns({{"X", Floats({1})}}, 3);
    EXPECT_EQ(times.status().code(), StatusCode::kInternal) << fault;
    EXPECT_THAT(times.status().message(), HasSubstr("timing runs of case.onnx")) << fault;
    EXPECT_THAT(times.status().message(), HasSubstr(needle)) << fault;
    EXPECT_THAT(times.status().message(), HasSubstr("a fault of the adapter")) << fault;
  }
}

TEST(AdapterRuntimeTest, CapabilitiesThatAreNotAListRefuseTheHello) {
  EXPECT_THAT(StartError(FaultAdapter("capabilities_bad")), HasSubstr("capabilities"));
}

}  // namespace
}  // namespace onnxgate
