// pg_server.hpp - a throwaway PostgreSQL server for store tests, made by the integration tests'
// tests/integration/pg/server.sh (initdb in a temporary directory, 127.0.0.1 on a free port, a
// role with a password owning one database). available() is false when Debian's server binaries
// are not installed; tests then skip.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "test_support.hpp"

namespace drover::plugin::test {

class PgServer {
  public:
    PgServer() {
        ::chmod(dir_.path().c_str(), 0755); // the server may run as another user (under root)
        port_ = std::to_string(free_port());
        ok_ = sh("pg_available && pg_init \"$D/pg\" && pg_start \"$P\" && "
                 "pg_create_db drover_acct_unit drover_unit unit-pass") == 0;
    }
    ~PgServer() { sh("PG_DIR=\"$D/pg\"; pg_stop immediate"); }
    PgServer(const PgServer &) = delete;
    PgServer &operator=(const PgServer &) = delete;

    bool available() const { return ok_; }
    // The slurm.conf keys that point accounting/postgres at this server.
    void configure(Config &conf) const {
        conf.raw["accountingstoragehost"] = "127.0.0.1";
        conf.raw["accountingstorageport"] = port_;
        conf.raw["accountingstorageuser"] = "drover_unit";
        conf.raw["accountingstoragepass"] = "unit-pass";
        conf.raw["accountingstorageloc"] = "drover_acct_unit";
        conf.raw["clustername"] = "alpha";
    }
    // Runs SQL as the superuser; rows as a|b, one a line.
    std::string sql(const std::string &query) const {
        std::string cmd =
            script("PG_DIR=\"$D/pg\"; PG_PORT=\"$P\"; pg_sql drover_acct_unit \"$Q\"");
        ::setenv("Q", query.c_str(), 1);
        std::string out;
        if (FILE *p = ::popen(cmd.c_str(), "r")) {
            char buf[4096];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
            ::pclose(p);
        }
        while (!out.empty() && out.back() == '\n') out.pop_back();
        return out;
    }

  private:
    static int free_port() {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
        ::close(fd);
        return ntohs(a.sin_port);
    }
    std::string script(const std::string &body) const {
        ::setenv("D", dir_.path().c_str(), 1);
        ::setenv("P", port_.c_str(), 1);
        return "bash -c 'free_port() { echo \"$P\"; }; source \"" DROVER_TEST_SOURCE_DIR
               "/tests/integration/pg/server.sh\"; " +
               body + "' 2>&1";
    }
    int sh(const std::string &body) const {
        std::string cmd = script(body) + " >/dev/null";
        return std::system(cmd.c_str());
    }

    TempDir dir_;
    std::string port_;
    bool ok_ = false;
};

} // namespace drover::plugin::test
