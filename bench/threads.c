// SPDX-License-Identifier: GPL-2.0
/* Starts and joins argv[1] threads, one after the other (bench_trace). */
#include <pthread.h>
#include <stdlib.h>

static void *thread(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, thread, NULL))
			return 1;
		pthread_join(t, NULL);
	}
	return 0;
}
