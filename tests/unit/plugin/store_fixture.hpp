// store_fixture.hpp - a test run once per accounting store: accounting/lmdb in a temporary
// directory, and accounting/postgres against a server the test starts (skipped when the server
// binaries or the plugin are missing).
#pragma once

#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "pg_server.hpp"
#include "test_support.hpp"

namespace drover::plugin::test {

class StoreTest : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        if (GetParam() == "postgres") {
            if (!std::filesystem::exists(kRealPluginDir + "/accounting_postgres.so"))
                GTEST_SKIP() << "accounting/postgres not built (libpq-dev missing)";
            pg_ = std::make_unique<PgServer>();
            if (!pg_->available()) GTEST_SKIP() << "PostgreSQL server binaries not installed";
            pg_->configure(conf_);
        } else {
            conf_.raw["accountingstorageloc"] = dir_ / "acct";
        }
        reopen();
    }

    // Unloads and loads the plugin again (what survives is what the store kept).
    void reopen() {
        set_.reset();
        set_ = std::make_unique<PluginSet>(conf_, "ctld");
        set_->load("accounting/" + GetParam());
    }

    const Bound<drover_acct_ops> &acct() const { return set_->acct(); }

    TempDir dir_;
    Config conf_ = real_plugin_config();
    std::unique_ptr<PgServer> pg_;
    std::unique_ptr<PluginSet> set_;
};

} // namespace drover::plugin::test
