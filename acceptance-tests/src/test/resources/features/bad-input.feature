Feature: Broken and hostile requests are refused cleanly
  In order to keep the sale safe from broken or malicious clients
  As the operator of the service
  I want every malformed request refused with a clear reason, and no stock taken

  Background:
    Given a sale that has started with a limit of 5 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is warmed up

  Scenario Outline: <request> is refused as <reason>
    When someone sends <request>
    Then it is refused as <reason>
    And no ticket has been taken
    And no new sale has appeared

    Examples: Reservations that make no sense
      | request                                                      | reason            |
      | a reservation whose message is cut off                       | VALIDATION        |
      | a reservation whose message is not a message at all          | VALIDATION        |
      | a reservation for a negative quantity                        | VALIDATION        |
      | a reservation for zero tickets                               | VALIDATION        |
      | a reservation for a thousand and one tickets                 | VALIDATION        |
      | a reservation for more tickets than any number can hold      | VALIDATION        |
      | a reservation whose quantity is a word                       | VALIDATION        |
      | a reservation whose quantity is a fraction                   | VALIDATION        |
      | a reservation for no products                                | VALIDATION        |
      | a reservation without a list of products                     | VALIDATION        |
      | a reservation naming the same product twice                  | VALIDATION        |
      | a reservation for fifty-one different products               | VALIDATION        |
      | a reservation with a field nobody knows                      | VALIDATION        |
      | a reservation of ten megabytes                               | PAYLOAD_TOO_LARGE |

    Examples: Names that are not names
      | request                                                      | reason            |
      | a reservation for a product named with accented letters      | VALIDATION        |
      | a reservation for a product named with an emoji              | VALIDATION        |
      | a reservation for a product named with control characters    | VALIDATION        |
      | a reservation for a product named like a Lua script          | VALIDATION        |
      | a reservation for a product named like a database command    | VALIDATION        |
      | a reservation whose request id is a Lua script               | VALIDATION        |
      | a reservation whose request id is 65 characters long         | VALIDATION        |
      | a reservation whose idempotency key is a database command    | VALIDATION        |

    Examples: Buyers the gateway did not identify
      | request                                                      | reason            |
      | a reservation without a buyer identity                       | MISSING_USER      |
      | a reservation from an empty buyer identity                   | MISSING_USER      |
      | a reservation from a buyer identity of 65 characters         | MISSING_USER      |
      | a reservation from a buyer identity like a database command  | MISSING_USER      |
      | a reservation from a buyer identity like a path              | MISSING_USER      |

    Examples: Admin work without the admin's token, or with nonsense
      | request                                                      | reason            |
      | a new sale without the admin token                           | UNAUTHORIZED      |
      | a new sale with a wrong admin token                          | UNAUTHORIZED      |
      | a new sale with the admin token given as a password          | UNAUTHORIZED      |
      | a warm-up without the admin token                            | UNAUTHORIZED      |
      | a stock view with a wrong admin token                        | UNAUTHORIZED      |
      | a new sale that ends before it starts                        | VALIDATION        |
      | a new sale with a negative stock                             | VALIDATION        |
      | a new sale listing the same product twice                    | VALIDATION        |
      | a new sale with a limit of zero per buyer                    | VALIDATION        |
      | a new sale with a field nobody knows                         | VALIDATION        |
      | a new sale whose id holds control characters                 | VALIDATION        |
