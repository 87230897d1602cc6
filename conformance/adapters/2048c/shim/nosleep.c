/*
 * nosleep.c: the shared object the 2048.c adapter preloads with -fast.
 *
 * 2048.c pauses 150 ms between drawing a move's slide and its spawn
 * (usleep(150000) in main); this usleep returns at once instead. The
 * pause is the program's only call of usleep and nothing reads its
 * result, so the game is the same without it (docs/2048c.md says how
 * that was checked). The adapter compiles this file with cc at start.
 */
#include <unistd.h>

int usleep(useconds_t usec)
{
	(void)usec;
	return 0;
}
