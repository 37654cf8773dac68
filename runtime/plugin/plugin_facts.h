// What onnxgate knows about a plugin without running a model: its name, version, whether its
// cases need a process each, accepted ONNX versions, providers, and per provider its claims,
// intra-op thread limit and availability. A probe process opens the plugin, collects these facts
// and sends them to the parent as bytes (EncodePluginFacts); the parent reads them back with every
// count, size and name checked (DecodePluginFacts), since a plugin that corrupted its probe's
// memory may make it send anything.
//
// The limits below bound what a plugin may return anywhere in the ABI; the in-process side
// (plugin_in_process.cc) refuses a plugin past them before copying a single entry.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr size_t kMaxPluginProviders = 256;
inline constexpr size_t kMaxPluginOpsetRanges = 1024;
inline constexpr size_t kMaxPluginClaims = size_t{1} << 16;      // per provider
inline constexpr size_t kMaxPluginTypeConstraints = 64;          // per claim
inline constexpr size_t kMaxPluginConstraintTypes = 256;         // per type constraint
inline constexpr size_t kMaxPluginValueInfos = size_t{1} << 16;  // a model's inputs or outputs
inline constexpr size_t kMaxPluginDeclaredRank = 4096;
inline constexpr size_t kMaxPluginMetadata = size_t{1} << 16;
inline constexpr size_t kMaxPluginPlacements = size_t{1} << 22;
inline constexpr size_t kMaxPluginDeclines = 256;  // per placement
// A name, op type, domain or version string.
inline constexpr size_t kMaxPluginNameBytes = 4096;
// A longer text: a decline's reason, a metadata value.
inline constexpr size_t kMaxPluginTextBytes = size_t{1} << 20;
// An op version or an opset: more than ONNX will reach, small enough for an int.
inline constexpr int64_t kMaxPluginOpVersion = 1 << 20;

// A provider's facts: each a value or the error the plugin gave for it.
struct PluginProviderFacts {
  Status claims_status;  // OK: `claims` holds them
  std::vector<OpClaim> claims;
  Status threads_status;  // OK: `max_threads` holds it
  int max_threads = 1;
  // RuntimeUnderTest::ProviderAvailability: OK, Unavailable with the plugin's reason, or the
  // error the plugin gave.
  Status availability;
};

struct PluginFacts {
  std::string name;
  std::string version;
  // RuntimeUnderTest::NeedsCaseIsolation: false where the plugin's table does not say.
  bool needs_case_isolation = false;
  AcceptedVersions accepted;
  std::vector<std::string> providers;
  // For each listed provider, and for any other provider the probe was asked about.
  std::map<std::string, PluginProviderFacts> per_provider;
};

// Bytes that DecodePluginFacts reads back exactly.
std::string EncodePluginFacts(const PluginFacts& facts);
// InvalidArgument naming what is wrong (truncated, a count past its limit, an unsafe provider name,
// trailing bytes) for anything EncodePluginFacts would not have written.
StatusOr<PluginFacts> DecodePluginFacts(const std::string& bytes);

// The checks both sides share: a provider or runtime name passes CheckSafeName, as a name given on
// the command line does (it may become a file name: a baseline, an expectations file); any other
// string is valid UTF-8 of at most `max_bytes`.
Status CheckPluginName(const std::string& kind, const std::string& name);
Status CheckPluginString(const std::string& what, const std::string& s, size_t max_bytes);

}  // namespace onnxgate
