package io.flashsale.adapter.mysql.archfixture;

import io.flashsale.bootstrap.FlashsaleApplication;

/** Breaks the rules on purpose: an adapter that depends on bootstrap. */
public class MysqlAdapterPart {

    public FlashsaleApplication application;
}
