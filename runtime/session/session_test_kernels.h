// Tiny float kernels for session tests (Relu, Add with row broadcast, Neg, Sqrt, Identity, If,
// Constant with value_floats),
// so that sessions can be tested with registries the tests control.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/kernel/kernel_registry.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {
namespace testing_kernels {

// Kernel factories append "<op>:<input index>=<tensor>" here for every constant input they see.
std::vector<std::string> SeenConstants();
void ClearSeenConstants();

// Registers the test kernel of `op` (versions 1 to the newest ai.onnx opset ONNX knows) for the
// listed element types of constraint T (Identity, If and Constant accept any type).
Status RegisterTestKernel(KernelRegistry& registry, const std::string& op,
                          const std::vector<DataType>& types = {DataType::kFloat});

// A provider named `name` holding the test kernels for `ops` (float only, Identity for all types).
std::shared_ptr<const ExecutionProvider> TestProvider(const std::string& name,
                                                      const std::vector<std::string>& ops);

// A provider whose kernel for `op` refuses in its factory with `factory_status`.
std::shared_ptr<const ExecutionProvider> RefusingProvider(const std::string& name,
                                                          const std::string& op,
                                                          Status factory_status);

// A provider whose kernel for `op` returns OK without setting any output.
std::shared_ptr<const ExecutionProvider> SilentProvider(const std::string& name,
                                                        const std::string& op);

// A provider whose kernel for `op` passes input 0 through and appends, for each of `names`,
// "<name>=live" or "<name>=gone" to `log` as the kernel's scope sees it when it runs.
std::shared_ptr<const ExecutionProvider> ProbeProvider(const std::string& name,
                                                       const std::string& op,
                                                       std::vector<std::string> names,
                                                       std::vector<std::string>* log);

// A provider whose Neg kernel reads host tensors and resident ones of its own domain and
// outputs resident tensors, appending "<node name>:resident" or "<node name>:host" to `log`
// for the input each run gets.
std::shared_ptr<const ExecutionProvider> ResidentProvider(const std::string& name,
                                                          std::vector<std::string>* log);

// The test kernels for `ops` on a provider whose ClaimSubgraphs returns what `claim` makes of
// the offer.
std::shared_ptr<const ExecutionProvider> ClaimingProvider(
    const std::string& name, const std::vector<std::string>& ops,
    std::function<std::vector<SubgraphClaim>(const SubgraphOffer&)> claim);

}  // namespace testing_kernels
}  // namespace onnxgate
