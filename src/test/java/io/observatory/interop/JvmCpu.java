package io.observatory.interop;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * This JVM's CPU time (user plus system, every thread) over the spans between {@link #start()} and {@link #stop()},
 * and how much of it the JIT compiler threads used. The process total comes from the JVM
 * ({@link OperatingSystemMXBean#getProcessCpuTime()}, nanoseconds); the compiler threads' share from Linux's
 * {@code /proc/self/task/*}{@code /stat} (threads named {@code C1 CompilerThre…} and {@code C2 CompilerThre…}, clock
 * ticks of {@value #NANOS_PER_TICK} ns: Linux's {@code USER_HZ} of 100). A compiler thread that ends within a span
 * loses that span's share, which makes the JIT figure a lower bound.
 */
final class JvmCpu {

    private static final long NANOS_PER_TICK = 10_000_000;
    private static final Path TASKS = Path.of("/proc/self/task");

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long totalNanos;
    private long compilerNanos;
    private long spanStartNanos;
    private Map<String, Long> spanStartTicks = Map.of();

    /** Begins a span. */
    void start() {
        spanStartTicks = compilerTicks();
        spanStartNanos = os.getProcessCpuTime();
    }

    /** Ends the span begun by {@link #start()} and adds it to the totals. */
    void stop() {
        totalNanos += os.getProcessCpuTime() - spanStartNanos;
        compilerTicks()
                .forEach((thread, ticks) ->
                        compilerNanos += (ticks - spanStartTicks.getOrDefault(thread, 0L)) * NANOS_PER_TICK);
    }

    /** Returns the process CPU time over every span, in nanoseconds. */
    long totalNanos() {
        return totalNanos;
    }

    /** Returns the JIT compiler threads' share of {@link #totalNanos()}, in nanoseconds. */
    long compilerNanos() {
        return compilerNanos;
    }

    /** utime + stime in clock ticks of each live JIT compiler thread, by thread id. */
    private static Map<String, Long> compilerTicks() {
        Map<String, Long> ticks = new HashMap<>();
        try (Stream<Path> threads = Files.list(TASKS)) {
            for (Path thread : threads.toList()) {
                String stat;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                } catch (NoSuchFileException ended) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    // Fields after the name: state is 3rd in stat, utime the 14th, stime the 15th.
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.put(thread.getFileName().toString(), Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TASKS, e);
        }
        return ticks;
    }
}
