// SPDX-License-Identifier: GPL-2.0
// The clang++ candle: what the user report suggests as a stand-in for the
// start-up of a large C++ program, a compilation with templates, lambdas
// and <regex>.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace candle {
template <typename T>
struct Box {
	T v;
	auto get() const { return [this] { return v; }; }
};

template <typename... Ts>
struct Visitor : Ts... {
	using Ts::operator()...;
};
template <typename... Ts>
Visitor(Ts...) -> Visitor<Ts...>;

using Value = std::variant<int, double, std::string>;

std::string describe(const Value &v)
{
	return std::visit(Visitor{
		[](int i) { return "int " + std::to_string(i); },
		[](double d) { return "double " + std::to_string(d); },
		[](const std::string &s) { return "string " + s; },
	}, v);
}
} // namespace candle

int main()
{
	std::vector<std::string> v{"a1", "b22", "c333", "d4444"};
	std::regex re("([a-z])([0-9]+)");
	std::map<std::string, int> m;
	std::unordered_map<int, std::shared_ptr<candle::Value>> u;

	for (auto &s : v) {
		std::smatch sm;
		if (std::regex_match(s, sm, re))
			m[sm[1]] = std::stoi(sm[2]);
	}
	for (auto &[k, n] : m)
		u[n] = std::make_shared<candle::Value>(k);
	candle::Box<int> b{3};
	std::sort(v.begin(), v.end(), [](auto &x, auto &y) { return x.size() > y.size(); });
	for (auto &[n, p] : u)
		std::cout << candle::describe(*p) << n << '\n';
	std::cout << m.size() << b.get()() << std::endl;
}
