// fuzz_pmi.cpp - fuzz target: what a task sends on its PMI channel (PMI-1 lines, PMI-2 frames,
// garbage), fed in pieces to a two-node step's servers whose fences complete at once, plus a
// fence's exchanged bytes and the process mapping. Nothing may crash; every reply must read back
// as a whole request of its wire, and a decoded exchange must encode back to what it decoded.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/pmi_server.hpp"
#include "common/pmi_wire.hpp"

using namespace drover::pmi;

namespace {

void check_reply(const std::string &bytes) {
    Read r = bytes.rfind("cmd=", 0) == 0 ? read_v1(bytes) : read_v2(bytes);
    if (r.kind != Read::request || r.used != bytes.size()) std::abort();
}

void feed_servers(std::string_view data) {
    std::vector<std::unique_ptr<Server>> nodes;
    uint32_t entered = 0;
    std::string all;
    for (uint32_t n = 0; n < 2; ++n) {
        Host host;
        host.send = [](uint32_t, std::string b) { check_reply(b); };
        host.fence = [&](std::string blob) {
            all += blob;
            if (++entered < 2) return;
            for (auto &s : nodes) s->fence_done(all);
            entered = 0;
            all.clear();
        };
        host.abort = [](uint32_t, int, std::string) {};
        nodes.push_back(std::make_unique<Server>(
            StepInfo{"1.0", 4, {2 * n, 2 * n + 1}, process_mapping({0, 0, 1, 1}), 0}, host));
    }
    // Each piece: a rank byte, a length byte, then that many bytes for the rank's channel.
    while (data.size() >= 2) {
        uint32_t rank = uint8_t(data[0]) % 5; // 4 is no rank of the step
        std::size_t len = std::min<std::size_t>(uint8_t(data[1]), data.size() - 2);
        std::string_view piece = data.substr(2, len);
        data.remove_prefix(2 + len);
        if (!nodes[rank / 2 % 2]->feed(rank, piece)) nodes[rank / 2 % 2]->closed(rank);
    }
}

void check_exchange(std::string_view data) {
    std::map<std::string, std::string> kvs;
    if (!decode_kvs(data, kvs)) return;
    std::map<std::string, std::string> back;
    if (!decode_kvs(encode_kvs(kvs), back) || back != kvs) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view data(reinterpret_cast<const char *>(bytes), size);
    feed_servers(data);
    check_exchange(data);
    std::vector<uint32_t> nodes;
    for (std::size_t i = 0; i < size && i < 64; ++i) nodes.push_back(bytes[i] % 4);
    if (process_mapping(nodes).rfind("(vector", 0) != 0) std::abort();
    return 0;
}
