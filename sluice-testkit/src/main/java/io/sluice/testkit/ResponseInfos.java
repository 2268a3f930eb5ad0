package io.sluice.testkit;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.Map;

/** Response heads for driving an {@link HttpResponse.BodyHandler} without a server. */
public final class ResponseInfos {

    private record Head(int statusCode, HttpHeaders headers, HttpClient.Version version)
            implements HttpResponse.ResponseInfo {}

    private ResponseInfos() {}

    /** An immutable {@code 200} over HTTP/1.1 with no headers. */
    public static HttpResponse.ResponseInfo ok() {
        return new Head(200, HttpHeaders.of(Map.of(), (name, value) -> true), HttpClient.Version.HTTP_1_1);
    }
}
