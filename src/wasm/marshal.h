// Declarative marshalling between the core's structs (src/bahdanau.h) and plain JS values, in
// the manner of bergamot-translator's wasm/bindings: each struct that crosses has one table,
// Fields<T>::list, naming its JS keys beside its members, and the code below walks the table.
// The table of a result (translation.cpp, step.cpp, ...) builds a JS object; the table of a
// params struct (params.cpp) reads a JS options object. Nothing here derives a value: what JS
// computes from the arrays (a step's cNorm, topProbs) is web/lib's (web/lib/native.js).
//
// Decision: our own tables rather than Embind's value_object. value_object would hand JS every
// std::vector as an Embind object to delete(), and web/lib's callers get plain arrays; the
// tables keep the bindings as declarative while every result stays plain data.
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace blw {

using emscripten::val;

// A JS key and the member of C it reads or writes. Reading, max_items (when not 0) bounds the
// length of an array; writing, where `present` is given and false, the key holds null.
template <class C, class M>
struct Field {
  const char* name;
  M C::*member;
  size_t max_items = 0;
  bool (*present)(const C&) = nullptr;
};

template <class C, class M>
constexpr Field<C, M> field(const char* name, M C::*member, size_t max_items = 0) {
  return {name, member, max_items, nullptr};
}

// A result's member that is null in JS where present(c) is false (an unedited step's ownAlpha).
template <class C, class M>
constexpr Field<C, M> field_or_null(const char* name, M C::*member, bool (*present)(const C&)) {
  return {name, member, 0, present};
}

// A nested JS object made of members of the same struct (a translation's
// timings: {encodeMs, decodeMs}). Where `present` is given and false, the key holds null.
template <class C, class... F>
struct Group {
  const char* name;
  bool (*present)(const C&);
  std::tuple<F...> fields;
};

template <class C, class... F>
constexpr Group<C, F...> group(const char* name, bool (*present)(const C&), F... fields) {
  return {name, present, std::tuple<F...>(fields...)};
}

// Specialised once per struct that crosses: static constexpr auto list = std::make_tuple(...).
template <class T>
struct Fields;

template <class T, class = void>
struct HasFields : std::false_type {};
template <class T>
struct HasFields<T, std::void_t<decltype(Fields<T>::list)>> : std::true_type {};

inline val error_object(const std::string& message) {
  val o = val::object();
  o.set("error", message);
  return o;
}

// C++ -> JS. Numbers become JS numbers (doubles: every int, float and size_t here is exact in
// one), vectors become Arrays, structs with a table become objects.
template <class T>
val to_js(const T& x);

namespace detail {

template <class C, class Tuple>
val object_of(const C& c, const Tuple& fields);

template <class C, class M>
void put(val& o, const C& c, const Field<C, M>& f) {
  if (f.present && !f.present(c))
    o.set(f.name, val::null());
  else
    o.set(f.name, to_js(c.*(f.member)));
}

template <class C, class... F>
void put(val& o, const C& c, const Group<C, F...>& g) {
  if (g.present && !g.present(c))
    o.set(g.name, val::null());
  else
    o.set(g.name, object_of(c, g.fields));
}

template <class C, class Tuple>
val object_of(const C& c, const Tuple& fields) {
  val o = val::object();
  std::apply([&](const auto&... f) { (put(o, c, f), ...); }, fields);
  return o;
}

}  // namespace detail

template <class T>
val to_js(const T& x) {
  if constexpr (std::is_same_v<T, bool>) {
    return val(x);
  } else if constexpr (std::is_arithmetic_v<T>) {
    return val(double(x));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return val(x);
  } else if constexpr (HasFields<T>::value) {
    return detail::object_of(x, Fields<T>::list);
  } else {
    static_assert(std::is_same_v<T, std::vector<typename T::value_type>>, "no table for T");
    using E = typename T::value_type;
    if constexpr (std::is_arithmetic_v<E> && !std::is_same_v<E, bool>) {
      // One copy out of the wasm heap through a typed-array view; the result is a plain Array.
      return val::global("Array").call<val>(
          "from", val(emscripten::typed_memory_view(x.size(), x.data())));
    } else {
      val a = val::array();
      for (size_t i = 0; i < x.size(); i++) a.set(i, to_js(x[i]));
      return a;
    }
  }
}

// JS -> C++: a params struct from an options object (undefined: all defaults), arrays of
// structs with a table included (TranslateParams' edits); a key left undefined keeps the
// struct's default. Every value's type is checked before it is converted, since a failed
// conversion would throw past the destructors of the call and leak what it had built on the
// heap: a wrong one gives false and *error naming it ("edits[2].weights[0] must be a number,
// got a string"). web/lib checks the same first, with its own TypeError or RangeError.
// prefix: the path of options itself, for the messages ("edits[2].").
template <class P>
bool from_js(const val& options, P* out, std::string* error, const std::string& prefix = "");

namespace detail {

inline std::string describe(const val& v) {
  if (v.isNull()) return "null";
  if (v.isArray()) return "an array";
  if (v.isTrue() || v.isFalse()) return v.isTrue() ? "true" : "false";
  if (v.isString()) return "a string";
  if (v.isNumber()) return val::global("String")(v).as<std::string>();  // JS's own digits
  return "a value of type " + v.typeOf().as<std::string>();
}

inline bool wrong(const std::string& path, const char* want, const val& v, std::string* error) {
  *error = path + " must be " + want + ", got " + describe(v);
  return false;
}

inline bool is_object(const val& v) {
  return !v.isNull() && !v.isArray() && v.typeOf().as<std::string>() == "object";
}

// One value at path ("edits[2].step") into *x.
template <class M>
bool read(const val& v, M* x, const std::string& path, size_t max_items, std::string* error) {
  if constexpr (std::is_same_v<M, bool>) {
    if (!v.isTrue() && !v.isFalse()) return wrong(path, "true or false", v, error);
    *x = v.isTrue();
  } else if constexpr (std::is_integral_v<M>) {
    const double d = v.isNumber() ? v.as<double>() : 0.5;
    if (!(std::floor(d) == d && d >= double(std::numeric_limits<M>::min()) &&
          d <= double(std::numeric_limits<M>::max())))
      return wrong(path, "an integer", v, error);
    *x = M(d);
  } else if constexpr (std::is_floating_point_v<M>) {
    if (!v.isNumber()) return wrong(path, "a number", v, error);
    // A double beyond the float's range would be undefined behaviour in a cast: +-inf instead,
    // which the core refuses by name ("not a finite number").
    const double d = v.as<double>();
    *x = std::fabs(d) > double(std::numeric_limits<M>::max())
             ? std::copysign(std::numeric_limits<M>::infinity(), M(d > 0 ? 1 : -1))
             : M(d);
  } else if constexpr (HasFields<M>::value) {
    if (!is_object(v)) return wrong(path, "an object", v, error);
    return from_js(v, x, error, path + ".");
  } else {
    static_assert(std::is_same_v<M, std::vector<typename M::value_type>>, "no reader for M");
    if (!v.isArray()) return wrong(path, "an array", v, error);
    const size_t n = v["length"].as<size_t>();
    if (max_items && n > max_items) {
      *error = path + " holds at most " + std::to_string(max_items) + " items, got " +
               std::to_string(n);
      return false;
    }
    x->assign(n, typename M::value_type{});
    for (size_t i = 0; i < n; i++)
      if (!read(v[i], &(*x)[i], path + "[" + std::to_string(i) + "]", 0, error)) return false;
  }
  return true;
}

template <class C, class M>
bool get(C& c, const val& options, const Field<C, M>& f, const std::string& prefix,
         std::string* error) {
  const val v = options[f.name];
  return v.isUndefined() || read(v, &(c.*(f.member)), prefix + f.name, f.max_items, error);
}

}  // namespace detail

template <class P>
bool from_js(const val& options, P* out, std::string* error, const std::string& prefix) {
  if (options.isUndefined()) return true;
  if (!detail::is_object(options)) return detail::wrong("options", "an object", options, error);
  return std::apply(
      [&](const auto&... f) { return (detail::get(*out, options, f, prefix, error) && ...); },
      Fields<P>::list);
}

}  // namespace blw
