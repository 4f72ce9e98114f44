#pragma once
/// \file
/// XP_API marks what xparray's shared libraries export. They are built with hidden visibility: only the
/// declarations of the public headers carry the mark (the API, and the detail functions the headers'
/// inline code calls), so the libraries' internals stay inside them and can change without a new ABI.
#if defined(__GNUC__) || defined(__clang__)
#define XP_API __attribute__((visibility("default")))
#else
#define XP_API
#endif
