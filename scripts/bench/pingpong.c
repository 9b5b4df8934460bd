// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong SECONDS: a one-byte pipe ping-pong between two processes for
 * about SECONDS seconds (a whole number of 256-trip batches); prints the
 * round trips per second and their count, "RATE TRIPS".  Run in the VM by
 * scripts/guest/bench-observe (make bench-observe).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs, t0, t = 0;
	int ab[2], ba[2];
	long n = 0;
	char c = 0;

	secs = argc == 2 ? atof(argv[1]) : 0;
	if (secs <= 0) {
		fprintf(stderr, "usage: pingpong SECONDS\n");
		return 2;
	}
	if (pipe(ab) || pipe(ba))
		return 1;
	if (!fork()) {
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		return 0;
	}
	t0 = now();
	do {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
		if (++n % 256)
			continue;
		t = now();
	} while (n % 256 || t - t0 < secs);
	close(ab[1]);
	wait(NULL);
	printf("%.1f %ld\n", n / (t - t0), n);
	return 0;
}
