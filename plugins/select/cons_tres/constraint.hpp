// constraint.hpp - a job's feature expression (-C/--constraint) and how nodes match it.
//
//   a          nodes with feature a
//   a&b  a,b   nodes with both            a|b   nodes with either
//   (a|b)&c    grouping                   [a|b] all nodes with a, or all nodes with b
//   a*2        at least 2 of the nodes have a (other nodes need not), only in an & list
//   [a*2&b*4]  brackets around an & list group it like parentheses
// & binds tighter than |. At most one [..|..] group, not inside | or another [..|..].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cons_tres {

class Constraint {
  public:
    // Parses expr ("" = no constraint). Throws std::invalid_argument with a message.
    static Constraint parse(std::string_view expr);

    bool empty() const { return root_.kind == Expr::None; }
    // How many ways the job may be placed: the alternatives of its [a|b] group, else 1.
    size_t variants() const;
    // Does a node with these features (sorted) match, for variant v?
    bool matches(const std::vector<std::string> &sorted_features, size_t v) const;
    // The a*N terms: feature and count.
    const std::vector<std::pair<std::string, uint32_t>> &counts() const { return counts_; }
    // Every feature name the expression uses.
    const std::vector<std::string> &names() const { return names_; }

  private:
    struct Expr {
        enum Kind { None, Feature, And, Or, Match } kind = None;
        std::string name;
        uint32_t count = 0;
        std::vector<Expr> kids;
    };
    struct Reader;  // reads the text into an Expr (constraint.cpp)
    struct Checker; // checks where counts and [a|b] stand, collects counts and names
    static bool eval(const Expr &e, const std::vector<std::string> &f, size_t v);
    static const Expr *find_match(const Expr &e);

    Expr root_;
    std::vector<std::pair<std::string, uint32_t>> counts_;
    std::vector<std::string> names_;
};

} // namespace cons_tres
