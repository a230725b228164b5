package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MasterStatusTest {
    private static final String PAGE = "{\n  \"url\" : \"spark://master:7077\",\n  \"workers\" : [ { \"id\" : \"w1\","
            + " \"state\" : \"DEAD\" } ],\n  \"aliveworkers\" : 3,\n  \"cores\" : 3,\n  \"activeapps\" : [ { \"id\" :"
            + " \"app-1\" } ],\n  \"status\" : \"ALIVE\"\n}";

    @Test
    void readsTheJsonPageAloneOrInARawHttpResponse() {
        MasterStatus expected = new MasterStatus("spark://master:7077", "ALIVE", 3, List.of("app-1"));
        assertThat(MasterStatus.parse(PAGE)).isEqualTo(expected);
        assertThat(MasterStatus.parse("HTTP/1.1 200 OK\r\nContent-Type: text/json;charset=utf-8\r\n\r\n" + PAGE))
                .isEqualTo(expected);
    }

    @Test
    void refusesAPageWithoutTheFields() {
        assertThatThrownBy(() -> MasterStatus.parse("HTTP/1.1 503 Service Unavailable\r\n\r\n  busy  "))
                .hasMessage("Cannot read the Spark master's status: no \"status\" and \"aliveworkers\" in"
                        + " 'HTTP/1.1 503 Service Unavailable busy'");
        assertThatThrownBy(() -> MasterStatus.parse("{\"url\": \"spark://m:7077\"}"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
