package io.sluice.server.load;

import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.awt.Font;

/** The load charts' colours and style; {@link io.sluice.testkit.Png} writes them. */
final class ChartFiles {

    /** One colour per lane (A, B, C, C-unbounded) and per series elsewhere, in this order. */
    static final Color[] SERIES_COLOURS = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
        new Color(0x2C, 0xA0, 0x2C), new Color(0x7F, 0x7F, 0x7F)};
    static final Color INK = new Color(0x33, 0x33, 0x33);

    private ChartFiles() {
    }

    /** The colour of {@code index}'s series (a lane's ordinal). */
    static Color colour(int index) {
        return SERIES_COLOURS[index % SERIES_COLOURS.length];
    }

    /** White background, a 12-point bold title (long titles fit a panel), the given title shown or not. */
    static void style(Styler styler, boolean titled) {
        styler.setChartBackgroundColor(Color.WHITE).setChartTitleVisible(titled)
                .setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 12)).setSeriesColors(SERIES_COLOURS);
    }
}
