// Throwaway PostgreSQL servers for tests: initdb, pg_ctl start/stop, a database per test.
#include "harness/history/testing/postgres_server.h"

#include <fcntl.h>
#include <glob.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

bool WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text << "\n";
  return static_cast<bool>(out);
}

// The newest /usr/lib/postgresql/<version>/bin that has initdb, pg_ctl and postgres.
StatusOr<std::string> FindBinDir() {
  glob_t found{};
  std::vector<std::string> dirs;
  if (glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &found) == 0) {
    for (size_t i = 0; i < found.gl_pathc; ++i) {
      const fs::path bin = fs::path(found.gl_pathv[i]).parent_path();
      if (fs::exists(bin / "pg_ctl") && fs::exists(bin / "postgres")) dirs.push_back(bin);
    }
  }
  globfree(&found);
  if (dirs.empty()) {
    return Unavailable(
        "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb; Debian: "
        "the postgresql package)");
  }
  std::sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
    return std::atoi(fs::path(a).parent_path().filename().c_str()) <
           std::atoi(fs::path(b).parent_path().filename().c_str());
  });
  return dirs.back();
}

// As root, the prefix that runs a command as `postgres`, after handing it `dir`.
StatusOr<std::vector<std::string>> RunAsPrefix(const std::string& dir) {
  if (geteuid() != 0) return std::vector<std::string>{};
  const passwd* user = getpwnam("postgres");
  if (user == nullptr) {
    return Unavailable(
        "running as root, and initdb refuses root, but there is no `postgres` user "
        "to run the server as");
  }
  std::string runuser;
  for (const char* candidate : {"/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"}) {
    if (access(candidate, X_OK) == 0) runuser = candidate;
  }
  if (runuser.empty())
    return Unavailable("running as root, and there is no runuser to run as postgres");
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(dir, error)) {
    if (chown(entry.path().c_str(), user->pw_uid, user->pw_gid) != 0) break;
  }
  if (chown(dir.c_str(), user->pw_uid, user->pw_gid) != 0) {
    return Internal("PostgreSQL test server " + dir + ": cannot hand the folder to postgres");
  }
  return std::vector<std::string>{runuser, "-u", "postgres", "--"};
}

// Runs `argv` (after `prefix`), its output appended to dir/commands.log; its exit status.
int RunCommand(const std::vector<std::string>& prefix, const std::vector<std::string>& argv,
               const std::string& dir) {
  std::vector<std::string> all = prefix;
  all.insert(all.end(), argv.begin(), argv.end());
  std::vector<char*> args;
  for (std::string& a : all) args.push_back(a.data());
  args.push_back(nullptr);
  const std::string log = dir + "/commands.log";
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, STDIN_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A port on 127.0.0.1 that nothing listens on right now.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

std::string RandomPassword() {
  unsigned char bytes[12] = {};
  std::ifstream random("/dev/urandom", std::ios::binary);
  random.read(reinterpret_cast<char*>(bytes), sizeof(bytes));
  std::string hex;
  char digit[3];
  for (unsigned char b : bytes) {
    std::snprintf(digit, sizeof(digit), "%02x", b);
    hex += digit;
  }
  return "pw" + hex;
}

// The last `limit` characters of a log file.
std::string Tail(const fs::path& path, size_t limit) {
  const std::string text = ReadFile(path);
  return text.size() <= limit ? text : "..." + text.substr(text.size() - limit);
}

Status Failed(const std::string& dir, const std::string& what) {
  return Internal("PostgreSQL test server " + dir + ": " + what +
                  " failed: " + Tail(dir + "/commands.log", 600) +
                  " | server.log: " + Tail(dir + "/server.log", 600));
}

Status InitDb(const std::string& bin, const std::vector<std::string>& prefix,
              const std::string& dir) {
  const std::string password_file = dir + "/password";
  const int rc =
      RunCommand(prefix,
                 {bin + "/initdb", "-D", dir + "/data", "-U", "onnxgate", "--auth=scram-sha-256",
                  "--pwfile=" + password_file, "-E", "UTF8", "--no-locale", "--no-sync"},
                 dir);
  return rc == 0 ? OkStatus() : Failed(dir, "initdb");
}

Status PgCtlStart(const std::string& bin, const std::vector<std::string>& prefix,
                  const std::string& dir, int port) {
  const std::string options = "-p " + std::to_string(port) +
                              " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                              " -c fsync=off -c max_connections=40";
  const int rc = RunCommand(prefix,
                            {bin + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/server.log", "-w",
                             "-t", "60", "-o", options, "start"},
                            dir);
  return rc == 0 ? OkStatus() : Failed(dir, "pg_ctl start on port " + std::to_string(port));
}

// Stops the server in `dir` and removes the folder once this process ends without doing so
// (killed by a test runner's timeout, or crashed): a detached grandchild, outside this process's
// tree, waits for the pipe whose write end this process holds to close. Returns that write end
// (-1 when no watchdog could start: the server then outlives a killed test).
int StartWatchdog(const std::string& dir) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    if (fork() != 0) _exit(0);
    const int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) dup2(null, fd);
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != fds[0]) close(fd);
    }
    char byte;
    while (read(fds[0], &byte, 1) != 0 && errno == EINTR) {
    }
    if (fs::exists(dir + "/data/postmaster.pid")) (void)StopPostgresServer(dir);
    std::error_code error;
    fs::remove_all(dir, error);
    _exit(0);
  }
  close(fds[0]);
  if (child < 0) {
    close(fds[1]);
    return -1;
  }
  while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
  }
  return fds[1];
}

}  // namespace

StatusOr<std::string> StartPostgresServer(const std::string& folder) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string bin, FindBinDir());
  std::error_code error;
  fs::create_directories(folder, error);
  if (!fs::is_directory(folder)) {
    return Internal("PostgreSQL test server " + folder + ": cannot create the folder");
  }
  const std::string dir = fs::absolute(folder).lexically_normal().string();
  const bool initialized = fs::exists(dir + "/data/PG_VERSION");
  if (!initialized && !WriteFile(dir + "/password", RandomPassword())) {
    return Internal("PostgreSQL test server " + dir + ": cannot write its password file");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> prefix, RunAsPrefix(dir));
  if (!initialized) ONNXGATE_RETURN_IF_ERROR(InitDb(bin, prefix, dir));
  // The port it had before, when it is started again; otherwise a free one (tried three times,
  // since another process may take a free port before the server binds it).
  const std::string known_port = ReadFile(dir + "/port");
  Status started = Internal("not started");
  int port = 0;
  for (int attempt = 0; attempt < 3 && !started.ok(); ++attempt) {
    port = !known_port.empty() ? std::atoi(known_port.c_str()) : FreePort();
    started = PgCtlStart(bin, prefix, dir, port);
    if (!known_port.empty()) break;
  }
  ONNXGATE_RETURN_IF_ERROR(started);
  const std::string url = "postgresql://onnxgate:" + ReadFile(dir + "/password") +
                          "@127.0.0.1:" + std::to_string(port) + "/postgres";
  if (!WriteFile(dir + "/port", std::to_string(port)) || !WriteFile(dir + "/url", url)) {
    return Internal("PostgreSQL test server " + dir + ": cannot write its url and port files");
  }
  return url;
}

Status StopPostgresServer(const std::string& folder) {
  const std::string dir = fs::absolute(folder).lexically_normal().string();
  if (!fs::exists(dir + "/data/PG_VERSION")) {
    return NotFound("PostgreSQL test server " + dir + ": no server's files there");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string bin, FindBinDir());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> prefix, RunAsPrefix(dir));
  const int rc = RunCommand(
      prefix, {bin + "/pg_ctl", "-D", dir + "/data", "-m", "fast", "-w", "-t", "60", "stop"}, dir);
  return rc == 0 ? OkStatus() : Failed(dir, "pg_ctl stop");
}

StatusOr<std::string> CreatePostgresDatabase(const std::string& url, const std::string& name) {
  PGconn* connection = PQconnectdb(url.c_str());
  std::unique_ptr<PGconn, void (*)(PGconn*)> owned(connection, &PQfinish);
  if (PQstatus(connection) != CONNECTION_OK) {
    return Unavailable("cannot connect to create database " + name + ": " +
                       PQerrorMessage(connection));
  }
  char* identifier = PQescapeIdentifier(connection, name.c_str(), name.size());
  const std::string sql = std::string("CREATE DATABASE ") + identifier;
  PQfreemem(identifier);
  std::unique_ptr<PGresult, void (*)(PGresult*)> result(PQexec(connection, sql.c_str()), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    return Internal("cannot create database " + name + ": " + PQerrorMessage(connection));
  }
  const size_t slash = url.rfind('/');
  return url.substr(0, slash + 1) + name;
}

StatusOr<std::unique_ptr<PostgresTestServer>> PostgresTestServer::Start() {
  std::string pattern = (fs::temp_directory_path() / "onnxgate-postgres-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return Internal("cannot create a temporary folder for a PostgreSQL test server");
  }
  std::unique_ptr<PostgresTestServer> server(new PostgresTestServer(pattern));
  server->watchdog_ = StartWatchdog(server->dir_);
  ONNXGATE_ASSIGN_OR_RETURN(server->url_, StartPostgresServer(server->dir_));
  return server;
}

PostgresTestServer::~PostgresTestServer() {
  if (fs::exists(dir_ + "/data/postmaster.pid")) (void)StopPostgresServer(dir_);
  std::error_code error;
  fs::remove_all(dir_, error);
  if (watchdog_ >= 0) close(watchdog_);
}

Status PostgresTestServer::Restart() {
  ONNXGATE_ASSIGN_OR_RETURN(std::string url, StartPostgresServer(dir_));
  (void)url;
  return OkStatus();
}

}  // namespace onnxgate
