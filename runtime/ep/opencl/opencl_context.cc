// The opencl EP's device, program and kernel launches (see opencl_context.h for why OpenCL is
// only ever called in the process that runs kernels).
#include "runtime/ep/opencl/opencl_context.h"

#include <unistd.h>

#include <atomic>
#include <cstring>

#include "runtime/base/child_process.h"
#include "runtime/ep/opencl/cl_sources.h"
#include "runtime/ep/opencl/opencl_error.h"

namespace onnxgate::opencl_ep {

namespace {

// The process that first called OpenCL through this file, 0 before any call. A process forked
// after that must not call OpenCL (opencl_context.h).
std::atomic<pid_t> g_opencl_pid{0};

// OK when this process may call OpenCL (and from now on has), else Internal naming the parent.
Status ClaimOpenClForThisProcess() {
  const pid_t self = getpid();
  pid_t expected = 0;
  if (g_opencl_pid.compare_exchange_strong(expected, self) || expected == self) {
    return OkStatus();
  }
  return Internal("OpenCL was set up in process " + std::to_string(expected) +
                  ", which this process was forked from; an OpenCL implementation cannot be "
                  "used across fork (set the device up in the forked process only)");
}

std::string PlatformString(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string s(size, '\0');
  if (clGetPlatformInfo(platform, what, size, s.data(), nullptr) != CL_SUCCESS) return "?";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string DeviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string s(size, '\0');
  if (clGetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS) return "?";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <typename T>
T DeviceValue(cl_device_id device, cl_device_info what, T fallback) {
  T value{};
  if (clGetDeviceInfo(device, what, sizeof value, &value, nullptr) != CL_SUCCESS) return fallback;
  return value;
}

struct FoundDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string description;
};

// The device opencl_context.h describes, in this process. Unavailable "no OpenCL device: ..."
// when there is none.
StatusOr<FoundDevice> FindDevice() {
  cl_uint platform_count = 0;
  cl_int rc = clGetPlatformIDs(0, nullptr, &platform_count);
  if (rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (rc == CL_SUCCESS && platform_count == 0)) {
    return Unavailable(
        "no OpenCL device: no OpenCL platform is installed (the ICD loader lists "
        "none; Debian: pocl-opencl-icd for PoCL's CPU device)");
  }
  ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clGetPlatformIDs"));
  std::vector<cl_platform_id> platforms(platform_count);
  ONNXGATE_RETURN_IF_ERROR(
      ClStatus(clGetPlatformIDs(platform_count, platforms.data(), nullptr), "clGetPlatformIDs"));

  // Preference: GPU, accelerator, anything else; the first of the best kind wins.
  FoundDevice best;
  int best_rank = 99;
  std::string seen;
  for (cl_platform_id platform : platforms) {
    const std::string platform_name = PlatformString(platform, CL_PLATFORM_NAME);
    cl_uint count = 0;
    rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
    if (rc == CL_DEVICE_NOT_FOUND || count == 0) {
      seen += (seen.empty() ? "" : "; ") + platform_name + ": no device";
      continue;
    }
    ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clGetDeviceIDs(" + platform_name + ")"));
    std::vector<cl_device_id> devices(count);
    ONNXGATE_RETURN_IF_ERROR(
        ClStatus(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr),
                 "clGetDeviceIDs(" + platform_name + ")"));
    for (cl_device_id device : devices) {
      const std::string name = DeviceString(device, CL_DEVICE_NAME);
      if (!DeviceValue<cl_bool>(device, CL_DEVICE_AVAILABLE, CL_FALSE) ||
          !DeviceValue<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE, CL_FALSE)) {
        seen += (seen.empty() ? "" : "; ") + platform_name + ": " + name +
                " is not available or has no compiler";
        continue;
      }
      const cl_device_type type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE, 0);
      const int rank = (type & CL_DEVICE_TYPE_GPU) != 0           ? 0
                       : (type & CL_DEVICE_TYPE_ACCELERATOR) != 0 ? 1
                                                                  : 2;
      if (rank < best_rank) {
        best_rank = rank;
        best.platform = platform;
        best.device = device;
        best.description =
            name + " (" + platform_name + ", " + DeviceString(device, CL_DEVICE_VERSION) + ")";
      }
    }
  }
  if (best.device == nullptr) {
    return Unavailable("no OpenCL device: no platform offers a usable device (" + seen + ")");
  }
  return best;
}

// Runs FindDevice in a child process and returns what it found (its description). The child
// reports one status byte ('O' found, 'U' unavailable, 'E' error) and a message.
StatusOr<std::string> ProbeInChild(int timeout_seconds) {
  const ChildOutcome child = RunInChildProcess(
      [] {
        StatusOr<FoundDevice> found = FindDevice();
        if (found.ok()) return "O" + found->description;
        return (found.status().code() == StatusCode::kUnavailable ? "U" : "E") +
               found.status().message();
      },
      timeout_seconds);
  switch (child.end) {
    case ChildOutcome::End::kNotStarted:
      return Internal("probing for an OpenCL device: " + child.error);
    case ChildOutcome::End::kTimedOut:
      return Internal("probing for an OpenCL device did not finish within " +
                      std::to_string(timeout_seconds) + " s (the OpenCL driver hangs)");
    case ChildOutcome::End::kSignaled:
      return Internal(std::string("probing for an OpenCL device crashed the probe process (") +
                      strsignal(child.signal) + "): the OpenCL driver is broken");
    case ChildOutcome::End::kExited: break;
  }
  if (child.exit_code != 0 || child.output.empty()) {
    return Internal("probing for an OpenCL device: the probe process reported nothing");
  }
  const std::string message = child.output.substr(1);
  switch (child.output[0]) {
    case 'O': return message;
    case 'U': return Unavailable(message);
    default: return Internal(message);
  }
}

}  // namespace

// ---- DeviceBuffer ----

DeviceBuffer::~DeviceBuffer() {
  // A process forked from the maker must not call OpenCL: its copy is left alone (leaked).
  if (owner_ == getpid()) clReleaseMemObject(mem_);
}

// ---- KernelArg ----

KernelArg KernelArg::Input(const void* data, size_t bytes) {
  KernelArg a;
  a.kind_ = Kind::kInput;
  a.in_ = data;
  a.bytes_ = bytes;
  return a;
}

KernelArg KernelArg::Longs(std::vector<int64_t> values) {
  KernelArg a;
  a.kind_ = Kind::kInput;
  a.longs_.assign(values.begin(), values.end());
  a.bytes_ = a.longs_.size() * sizeof(cl_long);
  return a;
}

KernelArg KernelArg::Output(void* data, size_t bytes) {
  KernelArg a;
  a.kind_ = Kind::kOutput;
  a.out_ = data;
  a.bytes_ = bytes;
  return a;
}

KernelArg KernelArg::InOut(void* data, size_t bytes) {
  KernelArg a;
  a.kind_ = Kind::kInOut;
  a.in_ = data;
  a.out_ = data;
  a.bytes_ = bytes;
  return a;
}

KernelArg KernelArg::Device(std::shared_ptr<const DeviceBuffer> buffer) {
  KernelArg a;
  a.kind_ = Kind::kDevice;
  a.bytes_ = buffer != nullptr ? buffer->bytes() : 0;
  a.buffer_ = std::move(buffer);
  return a;
}

KernelArg KernelArg::Int(int32_t v) {
  KernelArg a;
  a.kind_ = Kind::kInt;
  a.i32_ = v;
  return a;
}

KernelArg KernelArg::Long(int64_t v) {
  KernelArg a;
  a.kind_ = Kind::kLong;
  a.i64_ = v;
  return a;
}

KernelArg KernelArg::Float(float v) {
  KernelArg a;
  a.kind_ = Kind::kFloat;
  a.f32_ = v;
  return a;
}

// ---- the device ----

StatusOr<std::string> ProbeOpenClDevice(int timeout_seconds) {
  if (g_opencl_pid.load() == getpid()) {
    ONNXGATE_ASSIGN_OR_RETURN(FoundDevice found, FindDevice());
    return found.description;
  }
  return ProbeInChild(timeout_seconds);
}

struct OpenClContext::Device {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::map<std::string, cl_kernel> kernels;

  ~Device() {
    for (auto& [name, kernel] : kernels) clReleaseKernel(kernel);
    if (program != nullptr) clReleaseProgram(program);
    if (queue != nullptr) clReleaseCommandQueue(queue);
    if (context != nullptr) clReleaseContext(context);
  }
};

StatusOr<std::shared_ptr<const OpenClContext>> OpenClContext::Create() {
  ONNXGATE_ASSIGN_OR_RETURN(std::string description, ProbeOpenClDevice());
  return std::shared_ptr<const OpenClContext>(new OpenClContext(std::move(description)));
}

OpenClContext::OpenClContext(std::string description) : description_(std::move(description)) {}

OpenClContext::~OpenClContext() {
  // A process forked from the one that set the device up must not touch its objects.
  if (device_ != nullptr && setup_pid_ != getpid()) (void)device_.release();  // NOLINT: leaked
}

Status OpenClContext::EnsureDevice() const {
  if (setup_tried_) {
    if (setup_pid_ != getpid()) return ClaimOpenClForThisProcess();  // names the parent
    return setup_error_;
  }
  setup_tried_ = true;
  setup_pid_ = getpid();
  setup_error_ = [&]() -> Status {
    ONNXGATE_RETURN_IF_ERROR(ClaimOpenClForThisProcess());
    ONNXGATE_ASSIGN_OR_RETURN(FoundDevice found, FindDevice());
    auto device = std::make_unique<Device>();
    device->device = found.device;
    cl_int rc = CL_SUCCESS;
    device->context = clCreateContext(nullptr, 1, &found.device, nullptr, nullptr, &rc);
    ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clCreateContext(" + found.description + ")"));
    device->queue = clCreateCommandQueue(device->context, found.device, 0, &rc);
    ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clCreateCommandQueue(" + found.description + ")"));

    const std::vector<ClSource>& sources = EmbeddedClSources();
    std::vector<const char*> texts;
    std::string names;
    for (const ClSource& s : sources) {
      texts.push_back(s.text);
      names += (names.empty() ? "" : ", ") + std::string(s.name);
    }
    device->program = clCreateProgramWithSource(device->context, static_cast<cl_uint>(texts.size()),
                                                texts.data(), nullptr, &rc);
    ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clCreateProgramWithSource(" + names + ")"));
    // Division and sqrt correctly rounded where the device can (numpy's are), so Div and Sqrt
    // give the bits the goldens hold.
    const cl_device_fp_config fp =
        DeviceValue<cl_device_fp_config>(found.device, CL_DEVICE_SINGLE_FP_CONFIG, 0);
    const std::string options = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0
                                    ? "-cl-fp32-correctly-rounded-divide-sqrt"
                                    : "";
    rc = clBuildProgram(device->program, 1, &found.device, options.c_str(), nullptr, nullptr);
    if (rc != CL_SUCCESS) {
      size_t size = 0;
      std::string log;
      if (clGetProgramBuildInfo(device->program, found.device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                &size) == CL_SUCCESS &&
          size > 0) {
        log.resize(size);
        if (clGetProgramBuildInfo(device->program, found.device, CL_PROGRAM_BUILD_LOG, size,
                                  log.data(), nullptr) != CL_SUCCESS) {
          log.clear();
        }
      }
      return ClBuildStatus(rc, names, log);
    }
    device_ = std::move(device);
    return OkStatus();
  }();
  return setup_error_;
}

StatusOr<cl_kernel> OpenClContext::KernelNamed(const std::string& name) const {
  auto it = device_->kernels.find(name);
  if (it != device_->kernels.end()) return it->second;
  cl_int rc = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(device_->program, name.c_str(), &rc);
  ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clCreateKernel(" + name + ")"));
  device_->kernels.emplace(name, kernel);
  return kernel;
}

Status OpenClContext::Prepare() const {
  std::lock_guard<std::mutex> lock(mu_);
  return EnsureDevice();
}

namespace {

// A device buffer released when the launch ends.
struct Buffer {
  cl_mem mem = nullptr;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (mem != nullptr) clReleaseMemObject(mem);
  }
};

}  // namespace

StatusOr<std::shared_ptr<const DeviceBuffer>> OpenClContext::NewBuffer(size_t bytes,
                                                                       const void* initial) const {
  if (bytes == 0) {
    return Internal(
        "a device buffer of 0 bytes was asked for: OpenCL has no empty buffers (a "
        "tensor with no elements stays on the host)");
  }
  std::lock_guard<std::mutex> lock(mu_);
  ONNXGATE_RETURN_IF_ERROR(EnsureDevice());
  const cl_mem_flags flags = CL_MEM_READ_WRITE | (initial != nullptr ? CL_MEM_COPY_HOST_PTR : 0);
  cl_int rc = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(device_->context, flags, bytes, const_cast<void*>(initial), &rc);
  ONNXGATE_RETURN_IF_ERROR(
      ClStatus(rc, "clCreateBuffer(a device buffer of " + std::to_string(bytes) + " bytes)"));
  return std::shared_ptr<const DeviceBuffer>(new DeviceBuffer(this, mem, bytes, getpid()));
}

Status OpenClContext::CheckBuffer(const DeviceBuffer& buffer, size_t bytes,
                                  const std::string& call) const {
  if (buffer.maker_ != this) {
    return Internal(call + ": the device buffer belongs to another OpenCL context");
  }
  if (bytes > buffer.bytes()) {
    return Internal(call + ": " + std::to_string(bytes) + " bytes of a device buffer of " +
                    std::to_string(buffer.bytes()));
  }
  return OkStatus();
}

Status OpenClContext::ReadBuffer(const DeviceBuffer& buffer, void* out, size_t bytes,
                                 const std::string& what) const {
  const std::string call = "clEnqueueReadBuffer(" + what + ")";
  ONNXGATE_RETURN_IF_ERROR(CheckBuffer(buffer, bytes, "OpenCL " + call));
  if (bytes == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mu_);
  ONNXGATE_RETURN_IF_ERROR(EnsureDevice());  // refuses a process forked after set-up
  // Blocking, and the queue is in order: the launches that wrote the buffer have finished.
  return ClStatus(clEnqueueReadBuffer(device_->queue, buffer.mem(), CL_TRUE, 0, bytes, out, 0,
                                      nullptr, nullptr),
                  call);
}

Status OpenClContext::Run(const std::string& kernel_name, const std::vector<size_t>& global,
                          const std::vector<KernelArg>& args) const {
  if (global.empty() || global.size() > 3) {
    return Internal("OpenCL launch of " + kernel_name + ": " + std::to_string(global.size()) +
                    " work dims (1 to 3 allowed)");
  }
  for (size_t g : global) {
    if (g == 0) return OkStatus();  // no work item: nothing to compute
  }
  std::lock_guard<std::mutex> lock(mu_);
  ONNXGATE_RETURN_IF_ERROR(EnsureDevice());
  ONNXGATE_ASSIGN_OR_RETURN(cl_kernel kernel, KernelNamed(kernel_name));

  std::vector<Buffer> buffers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    const std::string call = "(" + kernel_name + ", argument " + std::to_string(i) + ")";
    cl_int rc = CL_SUCCESS;
    switch (a.kind()) {
      case KernelArg::Kind::kInput:
      case KernelArg::Kind::kOutput:
      case KernelArg::Kind::kInOut: {
        // OpenCL has no empty buffers: an empty operand gets one of 4 bytes that nothing reads.
        const bool empty = a.bytes() == 0;
        const bool copy_in = a.kind() != KernelArg::Kind::kOutput && !empty;
        cl_mem_flags flags = a.kind() == KernelArg::Kind::kInput    ? CL_MEM_READ_ONLY
                             : a.kind() == KernelArg::Kind::kOutput ? CL_MEM_WRITE_ONLY
                                                                    : CL_MEM_READ_WRITE;
        if (copy_in) flags |= CL_MEM_COPY_HOST_PTR;
        buffers[i].mem = clCreateBuffer(device_->context, flags, empty ? 4 : a.bytes(),
                                        copy_in ? const_cast<void*>(a.data()) : nullptr, &rc);
        ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clCreateBuffer" + call));
        rc = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof(cl_mem), &buffers[i].mem);
        break;
      }
      case KernelArg::Kind::kDevice: {
        if (a.buffer() == nullptr) return Internal("OpenCL launch" + call + ": no device buffer");
        ONNXGATE_RETURN_IF_ERROR(CheckBuffer(*a.buffer(), 0, "OpenCL launch" + call));
        const cl_mem mem = a.buffer()->mem();
        rc = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof(cl_mem), &mem);
        break;
      }
      case KernelArg::Kind::kInt: {
        const cl_int v = a.int_value();
        rc = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof v, &v);
        break;
      }
      case KernelArg::Kind::kLong: {
        const cl_long v = a.long_value();
        rc = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof v, &v);
        break;
      }
      case KernelArg::Kind::kFloat: {
        const cl_float v = a.float_value();
        rc = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof v, &v);
        break;
      }
    }
    ONNXGATE_RETURN_IF_ERROR(ClStatus(rc, "clSetKernelArg" + call));
  }
  ONNXGATE_RETURN_IF_ERROR(
      ClStatus(clEnqueueNDRangeKernel(device_->queue, kernel, static_cast<cl_uint>(global.size()),
                                      nullptr, global.data(), nullptr, 0, nullptr, nullptr),
               "clEnqueueNDRangeKernel(" + kernel_name + ")"));
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    const bool read_back =
        a.kind() == KernelArg::Kind::kOutput || a.kind() == KernelArg::Kind::kInOut;
    if (!read_back || a.bytes() == 0) continue;
    ONNXGATE_RETURN_IF_ERROR(
        ClStatus(clEnqueueReadBuffer(device_->queue, buffers[i].mem, CL_TRUE, 0, a.bytes(), a.out(),
                                     0, nullptr, nullptr),
                 "clEnqueueReadBuffer(" + kernel_name + ", argument " + std::to_string(i) + ")"));
  }
  // The blocking reads waited for the kernel; a launch with no output still finishes here, so
  // an error of the kernel itself is this Run's.
  return ClStatus(clFinish(device_->queue), "clFinish(" + kernel_name + ")");
}

}  // namespace onnxgate::opencl_ep
