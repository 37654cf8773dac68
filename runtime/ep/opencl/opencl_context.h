// What every kernel of the opencl EP shares: the provider's device, context, in-order command
// queue, the one program built from the embedded .cl sources and its kernels, the launch of one
// kernel with host copies in and out, and the device buffers that keep a tensor on the device
// between launches (opencl_resident.h).
//
// OpenCL and fork (decision, docs/architecture.md "The opencl EP"): an OpenCL implementation
// keeps process state (PoCL starts worker threads as soon as its platform is queried), and a
// process forked after that hangs in its first OpenCL call. The harness creates providers in
// its parent and runs every case in a forked worker, so the parent must never call OpenCL:
//   - creating the context (OpenClContext::Create) only probes for a device, in a short-lived
//     child process (ProbeOpenClDevice), and calls nothing in the calling process;
//   - the device, context, queue and program are set up in the process that runs the first
//     kernel, once (at most one program build per process; PoCL keeps compiled kernels in its
//     on-disk cache, so later processes build from that cache);
//   - a process forked from one that had set them up gets an error instead of a hang.
// Device buffers follow the same rule: one is made only by NewBuffer, which sets the device up
// in the calling process, and the kernels call it only while they run (in the worker). A buffer
// is released (clReleaseMemObject) only in the process that made it; a forked copy of it is
// left alone, as the forked copy of the context is.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/ep/opencl/opencl_headers.h"

namespace onnxgate::opencl_ep {

class OpenClContext;

// A buffer in the device's memory, made by OpenClContext::NewBuffer and shared by the values
// that hold it; the last owner releases it. It has at least one byte: OpenCL has no empty
// buffers, so a tensor with no elements never gets one.
class DeviceBuffer {
 public:
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  size_t bytes() const { return bytes_; }
  cl_mem mem() const { return mem_; }

 private:
  friend class OpenClContext;
  DeviceBuffer(const OpenClContext* maker, cl_mem mem, size_t bytes, pid_t owner)
      : maker_(maker), mem_(mem), bytes_(bytes), owner_(owner) {}

  const OpenClContext* maker_;  // a buffer is valid in its own context's launches only
  cl_mem mem_;
  size_t bytes_;
  pid_t owner_;  // the process that made it, the only one that may release it
};

// One argument of a kernel launch, in the order of the kernel's parameters.
class KernelArg {
 public:
  enum class Kind { kInput, kOutput, kInOut, kDevice, kInt, kLong, kFloat };

  // A read-only device buffer holding a copy of `bytes` bytes at `data`, written before the
  // launch. `data` must outlive the launch.
  static KernelArg Input(const void* data, size_t bytes);
  static KernelArg Input(const Tensor& t) { return Input(t.raw_data(), t.ByteSize()); }
  // int64 values (shapes, strides, offsets) as a read-only buffer of OpenCL longs.
  static KernelArg Longs(std::vector<int64_t> values);
  // A write-only device buffer of `bytes` bytes, read back into `data` after the launch.
  static KernelArg Output(void* data, size_t bytes);
  static KernelArg Output(Tensor& t) { return Output(t.mutable_raw_data(), t.ByteSize()); }
  // A device buffer holding a copy of `bytes` bytes at `data`, read back into `data` after the
  // launch (a kernel that writes part of a result that other launches wrote before).
  static KernelArg InOut(void* data, size_t bytes);
  static KernelArg InOut(Tensor& t) { return InOut(t.mutable_raw_data(), t.ByteSize()); }
  // A buffer of the launching context as it is: the kernel reads and/or writes it in place and
  // nothing is copied to or from the host. The argument keeps the buffer alive for the launch.
  static KernelArg Device(std::shared_ptr<const DeviceBuffer> buffer);
  // Scalars passed by value: OpenCL int, long and float.
  static KernelArg Int(int32_t v);
  static KernelArg Long(int64_t v);
  static KernelArg Float(float v);

  Kind kind() const { return kind_; }
  const void* data() const { return !longs_.empty() ? longs_.data() : in_; }
  void* out() const { return out_; }
  size_t bytes() const { return bytes_; }
  int32_t int_value() const { return i32_; }
  int64_t long_value() const { return i64_; }
  float float_value() const { return f32_; }
  const DeviceBuffer* buffer() const { return buffer_.get(); }

 private:
  Kind kind_ = Kind::kInt;
  std::shared_ptr<const DeviceBuffer> buffer_;
  const void* in_ = nullptr;
  void* out_ = nullptr;
  size_t bytes_ = 0;
  std::vector<cl_long> longs_;
  int32_t i32_ = 0;
  int64_t i64_ = 0;
  float f32_ = 0;
};

// The device the opencl EP runs on: the first GPU of any platform, else the first accelerator,
// else the first other device (PoCL's CPU device), among devices that are available and have a
// compiler. Its description reads "<device> (<platform>, <device version>)".
//
// Probes in a child process unless this process already set OpenCL up (then in-process), so
// the caller never calls OpenCL itself. Unavailable "no OpenCL device: ..." when no platform
// is installed or no platform has a usable device; Internal when probing fails otherwise (the
// probe crashes or hangs for `timeout_seconds`), since a broken driver is not a missing one.
StatusOr<std::string> ProbeOpenClDevice(int timeout_seconds = 120);

class OpenClContext {
 public:
  // Probes for a device (ProbeOpenClDevice); sets nothing up in this process.
  static StatusOr<std::shared_ptr<const OpenClContext>> Create();
  ~OpenClContext();
  OpenClContext(const OpenClContext&) = delete;
  OpenClContext& operator=(const OpenClContext&) = delete;

  // The device the probe found, as ProbeOpenClDevice describes it.
  const std::string& device_description() const { return description_; }

  // Runs kernel `kernel` (a __kernel of the embedded sources) over `global` work items (one to
  // three dims; nothing runs when one of them is 0) with `args`: host inputs are copied to the
  // device, the kernel runs, host outputs are copied back before Run returns; device buffers
  // (KernelArg::Device) are used where they are. Launches are serialized on the one queue, so
  // Run is safe from many threads, and Run returns once the kernel has finished. The first Run
  // in a process sets up the device and builds the program; its errors (no device any more, a
  // build log) are returned from that Run and from every later one.
  Status Run(const std::string& kernel, const std::vector<size_t>& global,
             const std::vector<KernelArg>& args) const;

  // A read-write device buffer of `bytes` bytes (at least one), holding a copy of `initial`
  // when that is not null, else undefined contents. Sets the device up in this process if that
  // has not happened yet, so call it only where kernels run (the fork hazard above).
  StatusOr<std::shared_ptr<const DeviceBuffer>> NewBuffer(size_t bytes,
                                                          const void* initial = nullptr) const;

  // Copies the first `bytes` bytes of `buffer` (one of this context's) to `out` once every
  // launch queued before has finished. `what` names the value read for an error's message.
  Status ReadBuffer(const DeviceBuffer& buffer, void* out, size_t bytes,
                    const std::string& what) const;

  // Sets up the device and builds the program in this process if that has not happened yet
  // (what the first Run does); for tests and for callers that want the cost up front.
  Status Prepare() const;

 private:
  explicit OpenClContext(std::string description);

  struct Device;                // the OpenCL objects, set up once per process
  Status EnsureDevice() const;  // with mu_ held
  StatusOr<cl_kernel> KernelNamed(const std::string& name) const;  // with mu_ held
  // OK when `buffer` is this context's and holds `bytes` bytes; `call` names the use.
  Status CheckBuffer(const DeviceBuffer& buffer, size_t bytes, const std::string& call) const;

  std::string description_;
  mutable std::mutex mu_;
  mutable std::unique_ptr<Device> device_;
  mutable Status setup_error_;  // the first setup's error, kept
  mutable bool setup_tried_ = false;
  mutable pid_t setup_pid_ = 0;
};

}  // namespace onnxgate::opencl_ep
