Feature: Each background job runs on one instance at a time
  In order to keep the heavy background work of a sale from multiplying with every instance I add
  As the operator of several service instances
  I want each scheduled job to run on one instance at a time, and another instance to take it over when that one stops

  Scenario: Two instances share the schedules, and the survivor takes them all over
    Given two service instances share one shop database, each scheduling every job every 400 milliseconds
    When both have been running for 6 seconds
    Then reconciliation, the loading of sales, archiving and the return of given-back stock each ran at most once per 360 milliseconds over both instances together
    When the first instance stops
    Then the second instance runs each of those jobs within 5 seconds
