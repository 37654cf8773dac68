// onnxgate_test_postgres: a throwaway PostgreSQL server for test scripts.
//
//   onnxgate_test_postgres start DIR   starts a server whose files live in DIR, prints its URL
//                                      and leaves it running (exit 0); exit 77 when no server
//                                      can start on this machine (the reason on stderr)
//   onnxgate_test_postgres stop DIR    stops it (the files stay; remove DIR to drop them)
//
// Any other failure: the reason on stderr, exit 1; a usage error exits 2.
#include <iostream>
#include <string>

#include "harness/history/testing/postgres_server.h"

namespace {

constexpr int kExitSkip = 77;  // CTest's SKIP_RETURN_CODE convention

int Usage() {
  std::cerr << "usage: onnxgate_test_postgres start DIR | stop DIR\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Usage();
  const std::string command = argv[1];
  const std::string dir = argv[2];
  if (command == "start") {
    onnxgate::StatusOr<std::string> url = onnxgate::StartPostgresServer(dir);
    if (!url.ok()) {
      std::cerr << "onnxgate_test_postgres: " << url.status().message() << "\n";
      return url.status().code() == onnxgate::StatusCode::kUnavailable ? kExitSkip : 1;
    }
    std::cout << *url << "\n";
    return 0;
  }
  if (command == "stop") {
    const onnxgate::Status stopped = onnxgate::StopPostgresServer(dir);
    if (!stopped.ok()) {
      std::cerr << "onnxgate_test_postgres: " << stopped.message() << "\n";
      return 1;
    }
    return 0;
  }
  return Usage();
}
