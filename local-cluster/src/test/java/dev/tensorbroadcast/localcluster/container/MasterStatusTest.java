package dev.tensorbroadcast.localcluster.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MasterStatusTest {
    @Test
    void readsStatusAndAliveWorkersFromTheHttpResponse() {
        String response = "HTTP/1.1 200 OK\r\nContent-Type: text/json;charset=utf-8\r\n\r\n"
                + "{\n  \"url\" : \"spark://master:7077\",\n  \"workers\" : [ { \"id\" : \"w1\", \"state\" : \"DEAD\" } ],\n"
                + "  \"aliveworkers\" : 3,\n  \"cores\" : 3,\n  \"status\" : \"ALIVE\"\n}";
        assertThat(MasterStatus.parse(response)).isEqualTo(new MasterStatus("ALIVE", 3));
    }

    @Test
    void refusesAPageWithoutTheFields() {
        assertThatThrownBy(() -> MasterStatus.parse("HTTP/1.1 503 Service Unavailable\r\n\r\n  busy  "))
                .hasMessage("Cannot read the Spark master's status: no \"status\" and \"aliveworkers\" in"
                        + " 'HTTP/1.1 503 Service Unavailable busy'");
    }
}
