package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UserTextTest {
    @Test
    void showsShortTextAsItIs() {
        assertThat(UserText.shown("[2,3]")).isEqualTo("[2,3]");
        assertThat(UserText.shown("")).isEmpty();
        assertThat(UserText.shown("漢字 😀")).isEqualTo("漢字 😀");
    }

    @Test
    void escapesLineBreaksAndControlCharacters() {
        assertThat(UserText.shown("2,\na\r\tb\u0000\u2028")).isEqualTo("2,\\na\\r\\tb\\u0000\\u2028");
    }

    @Test
    void abbreviatesLongText() {
        assertThat(UserText.shown("1,".repeat(100))).isEqualTo("1,".repeat(28) + "1...");
        assertThat(UserText.shown("x".repeat(60))).isEqualTo("x".repeat(60));
        assertThat(UserText.shown("\n".repeat(40))).isEqualTo("\\n".repeat(28) + "\\...");
    }

    @Test
    void parseErrorsShowTheTextOnOneLine() {
        assertThatThrownBy(() -> Shape.parse("2,\na"))
                .hasMessage("Cannot parse shape '2,\\na': 'a' is not an integer; write it as [2,3], 2,3 or [] for a"
                        + " scalar");
        assertThatThrownBy(() -> Dialect.parse("nump\ny"))
                .hasMessageStartingWith("Cannot parse dialect 'nump\\ny': expected numpy,");
        assertThatThrownBy(() -> DType.parse("f\r4")).hasMessageStartingWith("Cannot parse dtype 'f\\r4': expected ");
    }

    @Test
    void oneLineEscapesWithoutShortening() {
        String long_ = "x".repeat(500);
        assertThat(UserText.oneLine(long_)).isSameAs(long_);
        assertThat(UserText.oneLine(long_ + "\n" + long_)).isEqualTo(long_ + "\\n" + long_);
    }

    @Test
    void everyBroadcastExceptionMessageIsOneLine() {
        assertThat(new InvalidRequestException("Cannot use column 'a\nb': no").getMessage())
                .isEqualTo("Cannot use column 'a\\nb': no");
    }
}
