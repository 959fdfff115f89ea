// repl_codec.cpp - ReplChange encoding.
#include "ctld/store/repl_codec.hpp"

#include <stdexcept>
#include <string>

namespace drover::ctld {

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<proto::ReplChange>>>
encode_changes(flatbuffers::FlatBufferBuilder &fbb, std::span<const state::Change> changes) {
    std::vector<flatbuffers::Offset<proto::ReplChange>> out;
    out.reserve(changes.size());
    for (const auto &c : changes) {
        auto k = fbb.CreateVector(c.key);
        auto v = c.kind == state::Change::Put ? fbb.CreateVector(c.value) : 0;
        out.push_back(proto::CreateReplChange(fbb, uint8_t(c.table), uint8_t(c.kind), k, v));
    }
    return fbb.CreateVector(out);
}

std::vector<state::Change>
decode_changes(const flatbuffers::Vector<flatbuffers::Offset<proto::ReplChange>> *changes) {
    std::vector<state::Change> out;
    if (!changes) return out;
    out.reserve(changes->size());
    for (flatbuffers::uoffset_t i = 0; i < changes->size(); ++i) {
        const auto *c = changes->Get(i);
        if (c->table() >= state::kTableCount)
            throw std::runtime_error("change " + std::to_string(i) + ": unknown table " +
                                     std::to_string(c->table()));
        if (c->kind() > state::Change::Clear)
            throw std::runtime_error("change " + std::to_string(i) + ": unknown kind " +
                                     std::to_string(c->kind()));
        state::Change d{state::Table(c->table()), state::Change::Kind(c->kind()), {}, {}};
        if (c->key()) d.key.assign(c->key()->begin(), c->key()->end());
        if (c->value()) d.value.assign(c->value()->begin(), c->value()->end());
        if (d.kind != state::Change::Clear && d.key.empty())
            throw std::runtime_error("change " + std::to_string(i) + ": empty key");
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace drover::ctld
