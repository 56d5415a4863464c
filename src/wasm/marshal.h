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

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace blw {

using emscripten::val;

// A JS key and the member of C it reads or writes.
template <class C, class M>
struct Field {
  const char* name;
  M C::*member;
};

template <class C, class M>
constexpr Field<C, M> field(const char* name, M C::*member) {
  return {name, member};
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

template <class C, class M>
void get(C& c, const val& options, const Field<C, M>& f) {
  const val v = options[f.name];
  if (!v.isUndefined()) c.*(f.member) = v.as<M>();
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

// JS -> C++: a params struct from an options object; a key left undefined keeps the struct's
// default. web/lib passes only values it has checked (a failed conversion would throw past the
// destructors of the call and leak what it had built on the heap).
template <class P>
P from_js(const val& options) {
  P p;
  std::apply([&](const auto&... f) { (detail::get(p, options, f), ...); }, Fields<P>::list);
  return p;
}

}  // namespace blw
