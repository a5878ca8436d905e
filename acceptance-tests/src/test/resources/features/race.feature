Feature: A crowd races for a few units
  In order to never sell more than we have, even when everyone clicks in the same second
  As a merchant running a flash sale
  I want exactly as many reservations accepted as there are units, no buyer above the limit, and each winner's reservation turned into one order

  Scenario Outline: <buyers> buyers, each trying twice, race for a stock of <units>
    Given a sale with <units> units of one product and a limit of 1 per buyer that has started and is ready to sell
    When <buyers> buyers each send 2 reservation requests at the same moment
    Then exactly <units> reservations are accepted
    And the other <refused> are refused as sold out or over the limit
    And <units> different buyers hold a reservation
    And no stock remains
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly <units> orders, none failed

    Examples:
      | units | buyers | refused |
      | 10    | 100    | 190     |
      | 100   | 1000   | 1900    |
      | 1     | 250    | 499     |

  Scenario Outline: <buyers> buyers, each trying twice, race for a stock of <units> kept in <counters> separate counters
    Given a sale with <units> units of one product kept in <counters> separate counters and a limit of 1 per buyer that has started and is ready to sell
    When <buyers> buyers each send 2 reservation requests at the same moment
    Then exactly <units> reservations are accepted
    And the other <refused> are refused as sold out or over the limit
    And <units> different buyers hold a reservation
    And no stock remains
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly <units> orders, none failed

    Examples:
      | units | counters | buyers | refused |
      | 10    | 4        | 100    | 190     |
      | 100   | 16       | 500    | 900     |

  Scenario Outline: <buyers> buyers, each trying twice, race for a stock of <units> split into <slices> slices
    Given a sale with <units> units of one product split into <slices> slices and a limit of 1 per buyer that has started and is ready to sell
    When <buyers> buyers each send 2 reservation requests at the same moment
    Then exactly <units> reservations are accepted
    And the other <refused> are refused as sold out or over the limit
    And <units> different buyers hold a reservation
    And no stock remains
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly <units> orders, none failed

    Examples:
      | units | slices | buyers | refused |
      | 100   | 3      | 500    | 900     |
