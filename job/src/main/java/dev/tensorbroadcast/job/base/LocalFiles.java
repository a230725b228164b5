package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;

/**
 * A local file written whole or not at all: the data goes to a hidden file next to the target, renamed over it only
 * when complete. {@code verb} completes the error messages: "Cannot export to ...", "Cannot write ...".
 */
public final class LocalFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private LocalFiles() {}

    /**
     * A new, empty, hidden file next to {@code target}. {@link Files#createFile} rather than
     * {@link Files#createTempFile}, so its mode follows the umask like any file the user writes (a temporary file
     * would be 0600); deleted on exit, so even a killed writer leaves none behind.
     */
    public static Path createTemp(String verb, Path target, Path parent) {
        String name = "." + target.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp";
        Path temp;
        try {
            temp = Files.createFile(parent.resolve(name));
        } catch (IOException e) {
            throw new DatasetException(
                    "Cannot " + verb + " " + target + ": cannot create a file in " + parent + " (" + reason(e) + ")");
        }
        temp.toFile().deleteOnExit();
        return temp;
    }

    /** Renames the complete {@code temp} to {@code target}; without {@code overwrite} a file that appeared wins. */
    public static void move(String verb, Path temp, Path target, boolean overwrite) {
        try {
            if (overwrite) {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (FileAlreadyExistsException e) {
            throw new DatasetException("Cannot " + verb + " " + target + ": the file appeared meanwhile; pass "
                    + Param.OVERWRITE.given("true", null) + " to replace it");
        } catch (IOException e) {
            throw new DatasetException(
                    "Cannot " + verb + " " + target + ": cannot move the written file there (" + reason(e) + ")");
        }
    }

    /** Why a file operation failed, without the paths the message already names. */
    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            return fileSystem.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
