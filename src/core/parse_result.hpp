// The value-or-message result that every boundary parser returns. The message is written for a
// human and says what was wrong and what is allowed; the caller adds which option it came from.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace embdemo {

template <typename T>
class ParseResult {
public:
    static ParseResult ok(T value) { return ParseResult(std::move(value), {}); }
    static ParseResult fail(std::string message) { return ParseResult(std::nullopt, std::move(message)); }

    explicit operator bool() const { return m_value.has_value(); }
    const T& value() const { return *m_value; }
    T& value() { return *m_value; }
    const std::string& error() const { return m_error; }

private:
    ParseResult(std::optional<T> value, std::string error)
        : m_value(std::move(value)), m_error(std::move(error)) {}

    std::optional<T> m_value;
    std::string m_error;
};

}  // namespace embdemo
