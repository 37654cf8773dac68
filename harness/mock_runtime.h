// gmock doubles of the runtime interface, for testing the harness without a real runtime.
#pragma once

#include <gmock/gmock.h>

#include "runtime/api/runtime.h"

namespace onnxgate {

class MockLoadedModel : public LoadedModel {
 public:
  MOCK_METHOD(std::vector<ValueInfo>, inputs, (), (const, override));
  MOCK_METHOD(std::vector<ValueInfo>, outputs, (), (const, override));
  using Metadata = std::map<std::string, std::string>;
  MOCK_METHOD(Metadata, metadata, (), (const, override));
  MOCK_METHOD(StatusOr<std::vector<Value>>, Run, (const std::vector<NamedValue>& feeds),
              (const, override));
  MOCK_METHOD(std::vector<NodePlacement>, placements, (), (const, override));
};

class MockRuntime : public RuntimeUnderTest {
 public:
  MOCK_METHOD(std::string, name, (), (const, override));
  MOCK_METHOD(std::string, version, (), (const, override));
  MOCK_METHOD(AcceptedVersions, accepted_versions, (), (const, override));
  MOCK_METHOD(std::vector<std::string>, providers, (), (const, override));
  MOCK_METHOD(StatusOr<std::unique_ptr<LoadedModel>>, Load,
              (const std::string& model_path, const LoadOptions& options), (const, override));
  MOCK_METHOD(StatusOr<std::vector<OpClaim>>, Claims, (const std::string& provider),
              (const, override));
  MOCK_METHOD(StatusOr<int>, MaxIntraOpThreads, (const std::string& provider), (const, override));
  MOCK_METHOD(Status, ProviderAvailability, (const std::string& provider), (const, override));
  // The mini suites of the harness's tests are text models, handed to the mock as they are.
  bool ReadsOnnxText() const override { return reads_onnx_text; }
  bool reads_onnx_text = true;
};

}  // namespace onnxgate
