// A paragraph split into sentences by the tokenizer's own rules, so that text over a model's
// length limit can be translated one sentence at a time (page, JS API, both CLIs).
#pragma once
#include <string_view>
#include <vector>

#include "core/tokenizer.h"

namespace bl {

// Byte ranges of text's sentences, in order. A sentence ends after a `.` `!` `?` `...` `…`
// `。` `！` `？` token (the tokens truecasing treats as sentence ends, spec version 3's list:
// docs/tokenization.md; under any version of tok) and the closing punctuation right after it
// (more ends, a closing quote or bracket: ) ] } ） 」 』), if a word follows
// somewhere after. Spaces between sentences belong to none; text without a word is no
// sentence. Invalid UTF-8: false and *error.
bool split_sentences(const Tokenizer& tok, std::string_view text,
                     std::vector<Tokenizer::ByteRange>* out, std::string* error);

}  // namespace bl
