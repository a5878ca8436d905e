Feature: Broken and hostile requests are refused cleanly
  In order to keep the sale safe from broken or malicious clients
  As the operator of the service
  I want every malformed request refused with a clear reason, and no stock taken

  Background:
    Given a sale that has started with a limit of 5 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell

  Scenario Outline: <request> is refused as <reason>
    When someone sends <request>
    Then it is refused as <reason>
    And no ticket has been taken
    And no new sale has appeared

    Examples: Reservations that make no sense
      | request                                                      | reason                     |
      | a reservation whose message is cut off                       | an invalid request         |
      | a reservation whose message is not a message at all          | an invalid request         |
      | a reservation for a negative quantity                        | an invalid request         |
      | a reservation for zero tickets                               | an invalid request         |
      | a reservation for a thousand and one tickets                 | an invalid request         |
      | a reservation for more tickets than any number can hold      | an invalid request         |
      | a reservation whose quantity is a word                       | an invalid request         |
      | a reservation whose quantity is a fraction                   | an invalid request         |
      | a reservation for no products                                | an invalid request         |
      | a reservation without a list of products                     | an invalid request         |
      | a reservation naming the same product twice                  | an invalid request         |
      | a reservation for fifty-one different products               | an invalid request         |
      | a reservation with a field nobody knows                      | an invalid request         |
      | a reservation of ten megabytes                               | too large                  |

    Examples: Names that are not names
      | request                                                      | reason                     |
      | a reservation for a product named with accented letters      | an invalid request         |
      | a reservation for a product named with an emoji              | an invalid request         |
      | a reservation for a product named with control characters    | an invalid request         |
      | a reservation for a product named like a piece of program code          | an invalid request         |
      | a reservation for a product named like a database command    | an invalid request         |
      | a reservation whose request id is a piece of program code               | an invalid request         |
      | a reservation whose request id is 65 characters long         | an invalid request         |
      | a reservation whose idempotency key is a database command    | an invalid request         |

    Examples: Buyers who are not signed in, or not as anyone
      | request                                                                      | reason                         |
      | a reservation from a buyer who is not signed in                              | coming from no signed-in buyer |
      | a reservation that only says which buyer it is from, without signing in      | coming from no signed-in buyer |
      | a reservation signed in under an empty name                                  | a sign-in that is not valid    |
      | a reservation signed in under a name of 65 characters                        | a sign-in that is not valid    |
      | a reservation signed in under a name like a database command                 | a sign-in that is not valid    |
      | a reservation signed in under a name like a path                             | a sign-in that is not valid    |
      | a reservation signed in by someone other than the shop                       | a sign-in that is not valid    |
      | a reservation whose sign-in is not a sign-in at all                          | a sign-in that is not valid    |
      | a reservation whose sign-in has run out                                      | a sign-in that has run out     |

    Examples: Admin work without the admin's token, or with nonsense
      | request                                                      | reason                     |
      | a new sale without the admin token                           | not coming from the admin  |
      | a new sale with a wrong admin token                          | not coming from the admin  |
      | a new sale with the admin token given as a password          | not coming from the admin  |
      | loading a sale by hand without the admin token                            | not coming from the admin  |
      | a stock view with a wrong admin token                        | not coming from the admin  |
      | a new sale that ends before it starts                        | an invalid request         |
      | a new sale with a negative stock                             | an invalid request         |
      | a new sale listing the same product twice                    | an invalid request         |
      | a new sale with a limit of zero per buyer                    | an invalid request         |
      | a new sale with a field nobody knows                         | an invalid request         |
      | a new sale whose id holds control characters                 | an invalid request         |
