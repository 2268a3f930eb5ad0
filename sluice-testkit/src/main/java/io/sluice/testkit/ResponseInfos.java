package io.sluice.testkit;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.Map;

/** Response heads for driving an {@link HttpResponse.BodyHandler} without a server. */
public final class ResponseInfos {

    private ResponseInfos() {
    }

    /** An immutable {@code 200} over HTTP/1.1 with no headers. */
    public static HttpResponse.ResponseInfo ok() {
        return new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return 200;
            }

            @Override
            public HttpHeaders headers() {
                return HttpHeaders.of(Map.of(), (name, value) -> true);
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
    }
}
