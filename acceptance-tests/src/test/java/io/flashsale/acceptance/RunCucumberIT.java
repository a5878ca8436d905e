package io.flashsale.acceptance;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** Runs every feature under {@code features/}; glue and reports are set in junit-platform.properties. */
@Suite
@IncludeEngines("cucumber")
@SelectPackages("features")
class RunCucumberIT {
}
