/* testlib: the few macros the unit tests share. A failed check prints "file:line: message" and the test goes on;
 * TEST_DONE() prints "NAME: N checks, F failed" and gives the exit status (0 pass, 1 fail). REQUIRE stops the test
 * with 99 (a hard error: the test itself could not run). */
#ifndef DLB_TESTLIB_H
#define DLB_TESTLIB_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tl_checks, tl_failed;

__attribute__((format(printf, 4, 5), unused)) static int tl_check(int ok, const char *file, int line,
								     const char *fmt, ...)
{
	va_list ap;
	tl_checks++;
	if (ok)
		return 1;
	tl_failed++;
	printf("%s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return 0;
}

#define CHECK(cond, ...) tl_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_EQ_INT(got, want)                                                                            \
	do {                                                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);                                   \
		CHECK(g_ == w_, "%s == %lld, expected %lld", #got, g_, w_);                                \
	} while (0)

#define CHECK_EQ_STR(got, want)                                                                            \
	do {                                                                                               \
		const char *g_ = (got), *w_ = (want);                                                      \
		CHECK(g_ && !strcmp(g_, w_), "%s == \"%s\", expected \"%s\"", #got, g_ ? g_ : "(null)", w_); \
	} while (0)

#define CHECK_NEAR(got, want, tol)                                                                         \
	do {                                                                                               \
		double g_ = (got), w_ = (want);                                                            \
		CHECK(fabs(g_ - w_) <= (tol), "%s == %.9g, expected %.9g +- %g", #got, g_, w_, (double)(tol)); \
	} while (0)

/* The string contains the substring. */
#define CHECK_HAS(hay, needle)                                                                             \
	do {                                                                                               \
		const char *h_ = (hay), *n_ = (needle);                                                    \
		CHECK(h_ && strstr(h_, n_), "%s == \"%s\" does not contain \"%s\"", #hay, h_ ? h_ : "(null)", n_); \
	} while (0)

#define REQUIRE(cond, ...)                                                                                 \
	do {                                                                                               \
		if (!(cond)) {                                                                             \
			printf("%s:%d: hard error: ", __FILE__, __LINE__);                                 \
			printf(__VA_ARGS__);                                                               \
			putchar('\n');                                                                     \
			exit(99);                                                                          \
		}                                                                                          \
	} while (0)

__attribute__((unused)) static int tl_done(const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	int len = (int)strcspn(base, ".");
	printf("%.*s: %d checks, %d failed\n", len, base, tl_checks, tl_failed);
	return tl_failed ? 1 : 0;
}

#define TEST_DONE() tl_done(__FILE__)
#endif
