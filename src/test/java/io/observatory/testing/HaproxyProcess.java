package io.observatory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's HAProxy in the foreground ({@code haproxy -db}, one process) on a configuration a test writes, read through
 * its stats socket {@code <work-dir>/haproxy.sock} with {@code show stat}; its standard output and error go to
 * {@code <work-dir>/haproxy.log}. Stopped by its own {@link Process} handle.
 */
public final class HaproxyProcess implements AutoCloseable {

    /** The stats socket line a configuration's {@code global} section needs, for {@code workDir}. */
    public static String statsSocket(Path workDir) {
        return "stats socket " + workDir.resolve("haproxy.sock") + " mode 600 level admin";
    }

    private static final int TAIL_LINES = 30;

    /**
     * The configuration of {@code docs/examples/haproxy.cfg} for a test: its {@code defaults}, a frontend on a free
     * loopback port, and the backend {@code proxies} with one server per outbound, each written from the docs' own
     * {@code server} line with the server's address, this agent port on 127.0.0.1 and {@code agent-inter 200ms}.
     *
     * @param servers each outbound's tag to the {@code address:port} HAProxy sends traffic (and its TCP check) to; the
     *                server is named as the tag with {@code /} as {@code _}
     */
    public static String docsConfig(Path workDir, Map<String, String> servers, int agentPort) throws IOException {
        String docs = Files.readString(Path.of("docs/examples/haproxy.cfg"));
        String template = docs.lines()
                .filter(line -> line.strip().startsWith("server proxy_de "))
                .findFirst()
                .orElseThrow();
        StringBuilder lines = new StringBuilder();
        servers.forEach((tag, address) -> lines.append(
                        template.replace("server proxy_de", "server " + tag.replace('/', '_'))
                                .replace("\"proxy_de\\n\"", "\"" + tag + "\\n\"")
                                .replace("10.0.0.5:1080", address)
                                .replace("agent-addr 10.0.0.2", "agent-addr 127.0.0.1")
                                .replace("agent-port 5555", "agent-port " + agentPort)
                                .replace("agent-inter 2s", "agent-inter 200ms"))
                .append('\n'));
        return "global\n  " + statsSocket(workDir) + "\n"
                + docs.substring(docs.indexOf("defaults"), docs.indexOf("frontend"))
                + "frontend proxies\n  bind 127.0.0.1:" + LoopbackDaemon.freePort() + "\n  default_backend proxies\n\n"
                + "backend proxies\n    balance roundrobin\n" + lines;
    }

    private final Process process;
    private final Path socket;
    private final Path log;

    private HaproxyProcess(Process process, Path socket, Path log) {
        this.process = process;
        this.socket = socket;
        this.log = log;
    }

    /** Writes {@code config} to {@code <work-dir>/haproxy.cfg} and starts HAProxy on it. */
    public static HaproxyProcess start(Path workDir, String config) throws IOException {
        Path file = workDir.resolve("haproxy.cfg");
        Path log = workDir.resolve("haproxy.log");
        Files.writeString(file, config);
        Process process = new ProcessBuilder("haproxy", "-db", "-f", file.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        return new HaproxyProcess(process, workDir.resolve("haproxy.sock"), log);
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /**
     * The servers of {@code backend} as {@code show stat} lists them now, by name, each its columns by header name
     * ({@code status}, {@code check_status}, {@code agent_status}, {@code agent_desc}, …); empty while the stats socket
     * does not exist yet.
     *
     * @throws UncheckedIOException when the socket exists but cannot be read
     */
    public Map<String, Map<String, String>> servers(String backend) {
        Map<String, Map<String, String>> servers = new LinkedHashMap<>();
        if (!Files.exists(socket)) {
            return servers;
        }
        String csv = command("show stat");
        List<String> lines = csv.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
            throw new IllegalStateException("show stat answered " + csv);
        }
        List<String> header = Arrays.asList(lines.get(0).substring(2).split(",", -1));
        int proxy = header.indexOf("pxname");
        int name = header.indexOf("svname");
        for (String line : lines.subList(1, lines.size())) {
            List<String> fields = fields(line);
            if (fields.size() == header.size()
                    && fields.get(proxy).equals(backend)
                    && !fields.get(name).equals("BACKEND")
                    && !fields.get(name).equals("FRONTEND")) {
                Map<String, String> columns = new LinkedHashMap<>();
                for (int i = 0; i < fields.size(); i++) {
                    columns.put(header.get(i), fields.get(i));
                }
                servers.put(fields.get(name), columns);
            }
        }
        return servers;
    }

    /** The fields of one CSV line, a quoted field's quotes removed and its doubled quotes read as one (RFC 4180). */
    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /** One command on the stats socket; HAProxy answers and closes the connection (non-interactive mode). */
    public String command(String command) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
            return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("HAProxy stats socket " + socket + ": " + command, e);
        }
    }

    /** E.g. {@code haproxy (pid 4711, exited 1)}, with the last lines of its log. */
    public String describeWithLog() {
        String state = process.isAlive() ? "running" : "exited " + process.exitValue();
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            lines = List.of("(cannot read " + log + ": " + e + ")");
        }
        return "haproxy (pid " + process.pid() + ", " + state + "), last lines of " + log + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }

    /** SIGTERM (HAProxy's hard stop), up to 5 s, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
