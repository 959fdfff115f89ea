// pmi_kvs.cpp - a fence's keys as bytes, and MPICH's process mapping.
#include "common/pmi_server.hpp"

#include <tuple>

namespace drover::pmi {

namespace {

void put_len(std::string &out, std::size_t n) {
    for (int i = 0; i < 4; ++i) out.push_back(char((n >> (8 * i)) & 0xff));
}

bool take(std::string_view &in, std::string &out) {
    if (in.size() < 4) return false;
    std::size_t n = 0;
    for (int i = 0; i < 4; ++i) n |= std::size_t(uint8_t(in[std::size_t(i)])) << (8 * i);
    if (in.size() - 4 < n) return false;
    out.assign(in.substr(4, n));
    in.remove_prefix(4 + n);
    return true;
}

} // namespace

std::string encode_kvs(const std::map<std::string, std::string> &kvs) {
    std::string out;
    for (const auto &[k, v] : kvs) {
        put_len(out, k.size());
        out.append(k);
        put_len(out, v.size());
        out.append(v);
    }
    return out;
}

bool decode_kvs(std::string_view blob, std::map<std::string, std::string> &into) {
    std::string k, v;
    while (!blob.empty()) {
        if (!take(blob, k) || !take(blob, v)) return false;
        into[k] = v;
    }
    return true;
}

std::string process_mapping(const std::vector<uint32_t> &node_of) {
    // Runs of consecutive ranks on one node, then runs on consecutive nodes with the same
    // count folded into one block (first node, nodes, ranks per node).
    using Block = std::tuple<uint32_t, uint32_t, uint32_t>;
    std::vector<Block> blocks;
    for (std::size_t r = 0; r < node_of.size();) {
        std::size_t e = r;
        while (e < node_of.size() && node_of[e] == node_of[r]) ++e;
        uint32_t node = node_of[r], count = uint32_t(e - r);
        auto *last = blocks.empty() ? nullptr : &blocks.back();
        if (last && std::get<0>(*last) + std::get<1>(*last) == node && std::get<2>(*last) == count)
            ++std::get<1>(*last);
        else
            blocks.emplace_back(node, 1, count);
        r = e;
    }
    // MPICH repeats the list from its start past its end: a cyclic layout needs one round.
    std::size_t period = blocks.size();
    for (std::size_t p = 1; p < blocks.size(); ++p) {
        bool repeats = blocks.size() % p == 0;
        for (std::size_t i = p; repeats && i < blocks.size(); ++i)
            repeats = blocks[i] == blocks[i % p];
        if (repeats) {
            period = p;
            break;
        }
    }
    std::string out = "(vector";
    for (std::size_t i = 0; i < period; ++i)
        out += ",(" + std::to_string(std::get<0>(blocks[i])) + "," +
               std::to_string(std::get<1>(blocks[i])) + "," +
               std::to_string(std::get<2>(blocks[i])) + ")";
    return out + ")";
}

} // namespace drover::pmi
