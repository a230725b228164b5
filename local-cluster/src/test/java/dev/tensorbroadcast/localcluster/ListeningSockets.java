package dev.tensorbroadcast.localcluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The addresses a process listens on, read from Linux's /proc: its socket inodes matched to /proc/net/tcp{,6}. */
final class ListeningSockets {
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /** The local addresses, as /proc prints them in hex ({@code 0100007F:1F90}), of the TCP sockets pid listens on. */
    static List<String> of(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // a descriptor closed while listing is no listening socket
                }
            }
        }
        List<String> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                if (fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
                    addresses.add(fields[1]);
                }
            }
        }
        return addresses;
    }

    /** Whether a /proc address is 127.0.0.1, in IPv4 or as IPv4-mapped IPv6. */
    static boolean isLoopback(String address) {
        String host = address.substring(0, address.indexOf(':'));
        return host.equals("0100007F")
                || host.equals("0000000000000000FFFF00000100007F")
                || host.equals("00000000000000000000000001000000");
    }
}
