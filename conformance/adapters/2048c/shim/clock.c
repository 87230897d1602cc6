/*
 * clock.c: the shared object the 2048.c adapter preloads with -clock N.
 *
 * 2048.c reads the clock once, srand(time(NULL)) at its first spawn, and
 * never again: the second it starts in is its whole seed. This time()
 * returns the second in TILEPROOF_2048C_CLOCK, which the adapter sets for
 * each run of the game (N, N+1, ...), so that a series of games repeats
 * exactly. Without the variable it reads the real clock. The adapter
 * compiles this file with cc at start.
 */
#include <stdlib.h>
#include <time.h>

time_t time(time_t *t)
{
	const char *s = getenv("TILEPROOF_2048C_CLOCK");
	time_t v;
	if (s != NULL) {
		v = (time_t)strtoll(s, NULL, 10);
	} else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		v = ts.tv_sec;
	}
	if (t != NULL)
		*t = v;
	return v;
}
