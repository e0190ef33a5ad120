#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "jvm" candle: broad C++ code in one library.  OpenJDK's libjvm.so
# (HotSpot, ~1,000 C++ files; Debian's openjdk-17-dbg has its DWARF, 156 MB
# zlib-compressed) starts, javac compiles generated sources, and the
# program they make runs: class loading and linking, the bytecode
# verifier, the interpreter, both JIT compilers and the garbage
# collectors, the start-up of an interpreter as users profile it.
#   jvm-job.sh <scratch folder> <classes>
set -eu
D=$1 n=$2
rm -rf "$D"; mkdir -p "$D/src" "$D/out"
for i in $(seq 1 "$n"); do
	{
		echo "package gen;"
		echo "import java.util.*;"
		echo "public class C$i {"
		echo "  static final Map<String, List<Integer>> m = new HashMap<>();"
		echo "  public static long run(int k) {"
		echo "    long h = $i; StringBuilder sb = new StringBuilder();"
		echo "    for (int j = 0; j < k; j++) {"
		echo "      sb.setLength(0); sb.append(\"c$i-\").append(j % 97);"
		echo "      m.computeIfAbsent(sb.toString(), s -> new ArrayList<>()).add(j);"
		echo "      h = h * 31 + sb.toString().hashCode() + (j % 3 == 0 ? Long.toString(h).length() : 0);"
		echo "    }"
		echo "    Object[] a = m.keySet().toArray(); Arrays.sort(a);"
		echo "    return h ^ a.length ^ String.format(\"%x\", h).length();"
		echo "  }"
		echo "}"
	} >"$D/src/C$i.java"
done
{
	echo "package gen;"
	echo "public class Main { public static void main(String[] a) { long r = 0;"
	echo "  for (int round = 0; round < 3; round++) {"
	for i in $(seq 1 "$n"); do echo "    r += C$i.run(200 + round * 100);"; done
	echo "  } System.out.println(r); } }"
} >"$D/src/Main.java"
javac -d "$D/out" "$D"/src/*.java
java -Xshare:off -XX:+UseG1GC -cp "$D/out" gen.Main >/dev/null
