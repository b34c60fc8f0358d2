ByJzt
lwg