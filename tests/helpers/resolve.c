// SPDX-License-Identifier: GPL-2.0
/*
 * resolve [-4] HOST: getaddrinfo(HOST) with AI_ADDRCONFIG, as netperf calls
 * it, for any family or (-4) IPv4; prints each address found, exits 1 with
 * gai_strerror() when there is none.  tests/test_vm.sh runs it in the
 * guest.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	struct addrinfo hints, *res, *ai;
	char buf[INET6_ADDRSTRLEN];
	int family = AF_UNSPEC, err;

	if (argc == 3 && !strcmp(argv[1], "-4")) {
		family = AF_INET;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: resolve [-4] HOST\n");
		return 2;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_ADDRCONFIG;
	err = getaddrinfo(argv[1], "12865", &hints, &res);
	if (err) {
		fprintf(stderr, "resolve: %s: %s\n", argv[1], gai_strerror(err));
		return 1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		const void *a = ai->ai_family == AF_INET ?
			(const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr :
			(const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;

		printf("%s\n", inet_ntop(ai->ai_family, a, buf, sizeof(buf)));
	}
	freeaddrinfo(res);
	return 0;
}
