package dev.tensorbroadcast.arrowio.format.npy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the header of a {@code .npy} file: a Python dict literal such as
 * {@code {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }}. This is a strict parser of the few literal
 * forms numpy writes (strings without escapes, integers, {@code True}/{@code False}/{@code None}, tuples, lists and
 * dicts), not an evaluator: anything else is an error. Nesting is bounded so a hostile header cannot exhaust the stack.
 */
final class NpyHeaderParser {
    private static final int MAX_DEPTH = 16;
    private static final int MAX_INT_DIGITS = 40;

    /** A parsed value with the header text it came from, for error messages. */
    record Parsed(Object value, String text) {}

    /** A Python tuple, as opposed to a list. */
    record PyTuple(List<Object> items) {}

    /** Python's {@code None}. */
    enum PyNone {
        NONE
    }

    /** Thrown for any syntax error; the caller adds the file name. */
    static final class SyntaxException extends Exception {
        private static final long serialVersionUID = 1L;

        SyntaxException(String message) {
            super(message);
        }
    }

    private final String text;
    private int pos;

    private NpyHeaderParser(String text) {
        this.text = text;
    }

    /** Parses a whole header: one dict with string keys, surrounded by whitespace only. */
    static Map<String, Parsed> parseDict(String header) throws SyntaxException {
        NpyHeaderParser parser = new NpyHeaderParser(header);
        parser.skipSpace();
        if (parser.peek() != '{') {
            throw new SyntaxException("the header is not a dict literal");
        }
        Map<String, Parsed> dict = parser.dict(0);
        parser.skipSpace();
        if (parser.pos != header.length()) {
            throw new SyntaxException("unexpected text after the header dict at offset " + parser.pos);
        }
        return dict;
    }

    private Map<String, Parsed> dict(int depth) throws SyntaxException {
        expect('{');
        Map<String, Parsed> entries = new LinkedHashMap<>();
        skipSpace();
        while (peek() != '}') {
            int keyStart = pos;
            Object key = value(depth + 1);
            if (!(key instanceof String name)) {
                throw new SyntaxException("dict key " + text.substring(keyStart, pos) + " is not a string");
            }
            skipSpace();
            expect(':');
            skipSpace();
            int valueStart = pos;
            Object value = value(depth + 1);
            if (entries.put(name, new Parsed(value, text.substring(valueStart, pos))) != null) {
                throw new SyntaxException("key '" + name + "' appears twice");
            }
            if (!separator('}')) {
                break;
            }
        }
        expect('}');
        return entries;
    }

    private Object value(int depth) throws SyntaxException {
        if (depth > MAX_DEPTH) {
            throw new SyntaxException("literals are nested more than " + MAX_DEPTH + " deep");
        }
        skipSpace();
        char c = peek();
        if (c == '\'' || c == '"') {
            return string(c);
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return integer();
        }
        if (c == '(' || c == '[') {
            return sequence(c, depth);
        }
        if (c == '{') {
            return dict(depth);
        }
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
            int start = pos;
            while (pos < text.length() && Character.isLetterOrDigit(text.charAt(pos))) {
                pos++;
            }
            String word = text.substring(start, pos);
            return switch (word) {
                case "True" -> true;
                case "False" -> false;
                case "None" -> PyNone.NONE;
                default -> throw new SyntaxException("unexpected name '" + shorten(word) + "' at offset " + start);
            };
        }
        throw new SyntaxException(
                pos >= text.length()
                        ? "the header ends in the middle of a value"
                        : "unexpected character '" + c + "' at offset " + pos);
    }

    private String string(char quote) throws SyntaxException {
        int start = ++pos;
        while (pos < text.length() && text.charAt(pos) != quote) {
            char c = text.charAt(pos);
            if (c == '\\' || c == '\n' || c == '\r') {
                throw new SyntaxException("string at offset " + (start - 1) + " contains an escape or a line break");
            }
            pos++;
        }
        if (pos >= text.length()) {
            throw new SyntaxException("unterminated string at offset " + (start - 1));
        }
        return text.substring(start, pos++);
    }

    private BigInteger integer() throws SyntaxException {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw new SyntaxException("expected digits at offset " + digits);
        }
        if (pos - digits > MAX_INT_DIGITS) {
            throw new SyntaxException("integer at offset " + start + " has more than " + MAX_INT_DIGITS + " digits");
        }
        BigInteger value = new BigInteger(text.substring(start, pos));
        // Python 2 era numpy wrote long integers with an L suffix: (3L, 4L)
        if (pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'l')) {
            pos++;
        }
        return value;
    }

    private Object sequence(char open, int depth) throws SyntaxException {
        char close = open == '(' ? ')' : ']';
        expect(open);
        List<Object> items = new ArrayList<>();
        boolean trailingComma = false;
        skipSpace();
        while (peek() != close) {
            items.add(value(depth + 1));
            trailingComma = separator(close);
            if (!trailingComma) {
                break;
            }
        }
        expect(close);
        if (open == '[') {
            return items;
        }
        // (3) is a parenthesized 3 in Python, not a tuple; (3,) is the tuple
        return items.size() == 1 && !trailingComma ? items.get(0) : new PyTuple(List.copyOf(items));
    }

    /** After an item: consumes a comma and returns true, or returns false when {@code close} follows. */
    private boolean separator(char close) throws SyntaxException {
        skipSpace();
        if (peek() == ',') {
            pos++;
            skipSpace();
            return true;
        }
        if (peek() != close) {
            throw new SyntaxException(
                    pos >= text.length()
                            ? "the header ends before '" + close + "'"
                            : "expected ',' or '" + close + "' at offset " + pos + ", found '" + peek() + "'");
        }
        return false;
    }

    private void expect(char c) throws SyntaxException {
        if (peek() != c) {
            throw new SyntaxException(
                    pos >= text.length()
                            ? "the header ends before '" + c + "'"
                            : "expected '" + c + "' at offset " + pos + ", found '" + peek() + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
